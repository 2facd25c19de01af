"""Shapes of the API's request and response bodies (TypedDicts: the client returns plain dicts)."""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 8):
    from typing import Literal, TypedDict
else:  # pragma: no cover
    raise RuntimeError("inquest needs Python 3.8 or newer")

AgentName = Literal["planner", "investigation_agent", "k8s_agent", "cloud_agent", "coding_agent"]
InvestigationStatus = Literal["pending", "running", "completed", "failed", "cancelled"]
KnowledgeType = Literal[
    "runbook", "procedure", "remediation", "fact", "configuration", "threshold", "sla",
    "incident", "deployment", "policy", "escalation", "oncall",
    "procedural", "factual", "temporal",
]
ConfigDocument = Dict[str, Any]


class InvestigationContext(TypedDict, total=False):
    service: str
    environment: Literal["prod", "staging", "dev"]
    namespace: str
    severity: Literal["high", "medium", "low"]
    related_alert: str
    time_window: str
    hint: str


class RootCause(TypedDict, total=False):
    description: str
    confidence: float
    evidence: List[str]


class TimelineEvent(TypedDict):
    timestamp: str
    event: str


class Recommendation(TypedDict):
    priority: str
    action: str


class InvestigationResult(TypedDict, total=False):
    summary: str
    root_cause: RootCause
    timeline: List[TimelineEvent]
    affected_systems: List[str]
    recommendations: List[Recommendation]


class InvestigationProgress(TypedDict):
    current_step: str
    steps_completed: int
    steps_total: int


class InvestigationError(TypedDict):
    code: str
    message: str


class Investigation(TypedDict, total=False):
    investigation_id: str
    status: InvestigationStatus
    agent: str
    message: str
    context: InvestigationContext
    progress: InvestigationProgress
    result: InvestigationResult
    tools_used: List[str]
    error: InvestigationError
    poll_url: str
    created_at: str
    started_at: str
    completed_at: str
    failed_at: str
    cancelled_at: str
    elapsed_seconds: float
    duration_seconds: float


class Pagination(TypedDict):
    total: int
    limit: int
    offset: int


class InvestigationList(TypedDict):
    investigations: List[Investigation]
    pagination: Pagination


class RawConfig(TypedDict):
    lineage: List[str]
    configs: Dict[str, ConfigDocument]
    #: node id -> version of that node's own config
    versions: Dict[str, int]


class AuditEntry(TypedDict, total=False):
    version: int
    changed_at: str
    changed_by: str
    approved_by: str
    diff: Dict[str, Dict[str, Any]]
    full_config: ConfigDocument
    #: the node whose own config changed (the team, or a group or org above it)
    node_id: str
    #: org | group | team
    level: str


class AuditHistory(TypedDict):
    history: List[AuditEntry]
    pagination: Pagination


class ConfigUpdateResult(TypedDict, total=False):
    """200 (applied: version, changed_fields, effective_config) or 202 (change_request_id, approvers...)."""

    message: str
    version: int
    changed_fields: List[str]
    effective_config: ConfigDocument
    change_request_id: str
    status: str
    approvers: List[str]
    changes: Dict[str, Dict[str, Any]]


class ChangeRequest(TypedDict, total=False):
    change_request_id: str
    status: str
    requested_by: str
    requested_at: str
    approvers: List[str]
    changes: Dict[str, Dict[str, Any]]


class ChangeRequestList(TypedDict):
    change_requests: List[ChangeRequest]


class TeachResult(TypedDict):
    document_id: str
    status: str
    level: str
    chunks: int


class DocumentStatus(TypedDict, total=False):
    document_id: str
    status: str
    indexed_at: str
    chunks: int


class RetrievedChunk(TypedDict, total=False):
    id: str
    document_id: str
    content: str
    score: float
    level: str
    type: str
    service: Optional[str]
    tags: List[str]
    tree_layer: int


class RetrieveResult(TypedDict):
    query_id: str
    strategy: str
    results: List[RetrievedChunk]
    took_ms: float


class AnswerSource(TypedDict):
    document_id: str
    title: str
    snippet: str
    score: float


class AnswerResult(TypedDict, total=False):
    query_id: str
    answer: str
    confidence: float
    sources: List[AnswerSource]


class TreeStats(TypedDict, total=False):
    total_documents: int
    total_chunks: int
    tree_depth: int
    nodes_by_level: Dict[str, int]
    last_sync_at: Optional[str]


class Node(TypedDict, total=False):
    node_id: str
    parent_id: Optional[str]
    kind: Literal["org", "group", "team"]
    name: str
    org_id: str
    created_at: str
    config: ConfigDocument


class NodeList(TypedDict):
    nodes: List[Node]


class Token(TypedDict, total=False):
    token: str
    token_id: str
    permissions: List[str]
    owner: str
    label: str
    created_at: str
    expires_at: Optional[str]


class TokenList(TypedDict):
    tokens: List[Token]
