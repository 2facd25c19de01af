"""The Inquest API client (standard library only)."""
from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, cast

from .errors import InquestError, NetworkError, RequestTimeoutError, WaitTimeoutError, error_from_response
from .types import (
    AgentName,
    AnswerResult,
    AuditHistory,
    ChangeRequest,
    ChangeRequestList,
    ConfigDocument,
    ConfigUpdateResult,
    DocumentStatus,
    Investigation,
    InvestigationContext,
    InvestigationList,
    KnowledgeType,
    Node,
    NodeList,
    RawConfig,
    RetrieveResult,
    TeachResult,
    Token,
    TokenList,
    TreeStats,
)

__all__ = ["Client", "TERMINAL_STATUSES", "AgentsApi", "ConfigApi", "KnowledgeApi", "WebhooksApi", "AdminApi"]

TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})
_RETRY_STATUSES = frozenset({429, 502, 503, 504})
_IDEMPOTENT = frozenset({"GET", "PUT", "DELETE"})
_VERSION = "0.1.0"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # The API never redirects; following one would resend the bearer token elsewhere.
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


def _drop_none(d: Mapping[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _seg(s: str) -> str:
    return urllib.parse.quote(s, safe="")


class Client:
    """Client for the Inquest REST API.

    >>> with Client("http://localhost:8080", token="tok_...") as inquest:
    ...     started = inquest.agents.start("planner", "checkout returns 500s", context={"service": "checkout"})
    ...     done = inquest.agents.wait_for_investigation(started["investigation_id"])

    ``base_url`` and ``token`` default to ``INQUEST_URL`` / ``INQUEST_TOKEN``; ``team`` (sent as
    ``X-Inquest-Team``, needed with an admin token) to ``INQUEST_TEAM``. 429 answers are retried
    after ``retry_after``; 502/503/504 with exponential backoff (``backoff_base`` doubling, capped
    at ``backoff_cap``), at most ``max_retries`` times.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        token: Optional[str] = None,
        *,
        team: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff_base: float = 0.5,
        backoff_cap: float = 8.0,
        max_retry_after: float = 60.0,
        user_agent: Optional[str] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        url = base_url or os.environ.get("INQUEST_URL")
        if not url:
            raise ValueError("base_url is required (or set INQUEST_URL)")
        url = url.rstrip("/")
        self._api = url if url.endswith("/api/v1") else url + "/api/v1"
        self._root = self._api[: -len("/api/v1")]
        self.token = token if token is not None else os.environ.get("INQUEST_TOKEN")
        self.team = team if team is not None else os.environ.get("INQUEST_TEAM")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_cap = backoff_cap
        self.max_retry_after = max_retry_after
        self.user_agent = user_agent or f"inquest-python/{_VERSION}"
        self._sleep = sleep
        self._opener = urllib.request.build_opener(_NoRedirect)
        self._closed = False
        self.agents = AgentsApi(self)
        self.config = ConfigApi(self)
        self.kb = KnowledgeApi(self)
        self.webhooks = WebhooksApi(self)
        self.tools = ToolsApi(self)
        self.admin = AdminApi(self)

    @property
    def base_url(self) -> str:
        """The versioned API root, e.g. ``http://localhost:8080/api/v1``."""
        return self._api

    # context manager -------------------------------------------------------------------------
    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Marks the client closed; later calls raise RuntimeError."""
        self._closed = True

    # top-level helpers -----------------------------------------------------------------------
    def health(self) -> Dict[str, Any]:
        """``GET /healthz`` (no token)."""
        return cast(Dict[str, Any], self.request("GET", "/healthz", unversioned=True, auth=False))

    def ready(self) -> Dict[str, Any]:
        """``GET /readyz`` (no token)."""
        return cast(Dict[str, Any], self.request("GET", "/readyz", unversioned=True, auth=False))

    def openapi(self) -> Dict[str, Any]:
        """The OpenAPI 3.1 document of the running service."""
        return cast(Dict[str, Any], self.request("GET", "/openapi.json", auth=False))

    def wait_for_investigation(self, investigation_id: str, **kwargs: Any) -> Investigation:
        """Same as ``agents.wait_for_investigation``."""
        return self.agents.wait_for_investigation(investigation_id, **kwargs)

    # transport -------------------------------------------------------------------------------
    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        team: Optional[str] = None,
        unversioned: bool = False,
        auth: bool = True,
        timeout: Optional[float] = None,
    ) -> Any:
        """Sends one API call with retries; returns the parsed JSON body (None for 204)."""
        if self._closed:
            raise RuntimeError("this inquest.Client is closed")
        url = (self._root if unversioned else self._api) + path
        params = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        headers = {"Accept": "application/json", "User-Agent": self.user_agent}
        if auth and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        t = team if team is not None else self.team
        if auth and t:
            headers["X-Inquest-Team"] = t
        data: Optional[bytes] = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode("utf-8")
        attempt = 0
        while True:
            try:
                return self._once(method, url, headers, data, timeout if timeout is not None else self.timeout)
            except InquestError as err:
                delay = self._retry_delay(err, method, attempt)
                if delay is None or attempt >= self.max_retries:
                    raise
            attempt += 1
            self._sleep(delay)

    def _retry_delay(self, err: InquestError, method: str, attempt: int) -> Optional[float]:
        if err.status == 429:
            # Refused before doing anything, so safe to repeat for every method.
            wait = err.retry_after if err.retry_after is not None else 1.0
            return None if wait > self.max_retry_after else wait
        no_answer = err.code in ("network_error", "timeout") and method in _IDEMPOTENT
        if err.status in _RETRY_STATUSES or no_answer:
            exp = min(self.backoff_cap, self.backoff_base * (2 ** attempt))
            return exp / 2 + random.random() * exp / 2
        return None

    def _once(self, method: str, url: str, headers: Dict[str, str], data: Optional[bytes], timeout: float) -> Any:
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with self._opener.open(req, timeout=timeout) as res:
                status = res.status
                raw = res.read()
                res_headers = {k.lower(): v for k, v in res.headers.items()}
        except urllib.error.HTTPError as e:
            raw = e.read() if e.fp is not None else b""
            res_headers = {k.lower(): v for k, v in (e.headers or {}).items()}
            raise error_from_response(e.code, _parse(raw), res_headers) from None
        except (socket.timeout, TimeoutError) as e:
            raise RequestTimeoutError(f"No answer from {url} within {timeout} s", code="timeout") from e
        except urllib.error.URLError as e:
            if isinstance(e.reason, (socket.timeout, TimeoutError)):
                raise RequestTimeoutError(f"No answer from {url} within {timeout} s", code="timeout") from e
            raise NetworkError(f"Cannot reach the Inquest API at {url} ({e.reason})", code="network_error") from e
        except (ConnectionError, OSError) as e:
            raise NetworkError(f"Cannot reach the Inquest API at {url} ({e})", code="network_error") from e
        if status == 204 or not raw:
            return None
        parsed = _parse(raw)
        if isinstance(parsed, str):
            raise InquestError(
                f"Expected JSON from {method} {url}, got: {parsed[:120]}",
                code="invalid_response",
                status=status,
                request_id=res_headers.get("x-request-id"),
                body=parsed,
            )
        return parsed


def _parse(raw: bytes) -> Any:
    text = raw.decode("utf-8", errors="replace")
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


class _Resource:
    def __init__(self, client: Client) -> None:
        self._c = client


class AgentsApi(_Resource):
    """``/agents/*``: investigations."""

    def run(
        self,
        agent_name: AgentName,
        message: str,
        *,
        context: Optional[InvestigationContext] = None,
        async_: bool = False,
        team: Optional[str] = None,
    ) -> Investigation:
        """Runs an investigation. Synchronous by default (the answer carries the result);
        with ``async_=True`` it returns at once with ``investigation_id`` and ``poll_url``."""
        body: Dict[str, Any] = {"agent_name": agent_name, "message": message}
        if context:
            body["context"] = dict(context)
        if async_:
            body["async"] = True
        return cast(Investigation, self._c.request("POST", "/agents/run", body=body, team=team))

    def start(
        self, agent_name: AgentName, message: str, *, context: Optional[InvestigationContext] = None, team: Optional[str] = None
    ) -> Investigation:
        """Starts an asynchronous investigation (same as ``run(..., async_=True)``)."""
        return self.run(agent_name, message, context=context, async_=True, team=team)

    def status(self, investigation_id: str, *, team: Optional[str] = None) -> Investigation:
        return cast(Investigation, self._c.request("GET", f"/agents/status/{_seg(investigation_id)}", team=team))

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        status: Optional[str] = None,
        agent: Optional[str] = None,
        team: Optional[str] = None,
    ) -> InvestigationList:
        query = _drop_none({"limit": limit, "offset": offset, "status": status, "agent": agent})
        return cast(InvestigationList, self._c.request("GET", "/agents/investigations", query=query, team=team))

    def list_all(
        self, *, status: Optional[str] = None, agent: Optional[str] = None, page_size: int = 100, team: Optional[str] = None
    ) -> Iterator[Investigation]:
        """Every matching investigation, newest first, fetched a page at a time."""
        offset = 0
        while True:
            page = self.list(limit=page_size, offset=offset, status=status, agent=agent, team=team)
            items = page["investigations"]
            yield from items
            offset += len(items)
            if not items or offset >= page["pagination"]["total"]:
                return

    def cancel(self, investigation_id: str, *, team: Optional[str] = None) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._c.request("POST", f"/agents/status/{_seg(investigation_id)}/cancel", team=team))

    def wait_for_investigation(
        self,
        investigation_id: str,
        *,
        initial_interval: float = 1.0,
        max_interval: float = 10.0,
        timeout: float = 300.0,
        on_poll: Optional[Callable[[Investigation], None]] = None,
        stop: Optional[threading.Event] = None,
        team: Optional[str] = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Optional[Callable[[float], None]] = None,
    ) -> Investigation:
        """Polls per the API guidance (1 s, doubling, at most 10 s apart, 300 s overall) until the
        investigation is completed, failed or cancelled, and returns that status (a failed one is
        returned, not raised). Raises WaitTimeoutError past ``timeout``. Setting the ``stop``
        event (from another thread) ends the wait at once with ``InterruptedError``; the
        investigation itself keeps running."""
        deadline = clock() + timeout
        interval = initial_interval

        def pause(seconds: float) -> None:
            if sleep is not None:
                sleep(seconds)
            elif stop is not None:
                stop.wait(seconds)
            else:
                time.sleep(seconds)

        while True:
            if stop is not None and stop.is_set():
                raise InterruptedError(f"stopped waiting for {investigation_id}")
            inv = self.status(investigation_id, team=team)
            if on_poll is not None:
                on_poll(inv)
            if inv.get("status") in TERMINAL_STATUSES:
                return inv
            left = deadline - clock()
            if left <= 0:
                raise WaitTimeoutError(
                    f"Investigation {investigation_id} still {inv.get('status')} after {timeout:g} s",
                    code="wait_timeout",
                    body=inv,
                )
            pause(min(interval, left))
            interval = min(max_interval, interval * 2)


class ConfigApi(_Resource):
    """``/config/me/*``: the calling team's configuration."""

    def effective(self, *, team: Optional[str] = None) -> ConfigDocument:
        """The merged configuration of the team; ``version`` is the team's config version."""
        return cast(ConfigDocument, self._c.request("GET", "/config/me/effective", team=team))

    def raw(self, *, team: Optional[str] = None) -> RawConfig:
        return cast(RawConfig, self._c.request("GET", "/config/me/raw", team=team))

    def audit(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        include_full: Optional[bool] = None,
        team: Optional[str] = None,
    ) -> AuditHistory:
        """The team's changes and those made at the org and group levels above it (each entry has
        ``node_id`` and ``level``), newest first; ``pagination`` has ``total``, ``limit``, ``offset``."""
        query = _drop_none({"limit": limit, "offset": offset, "include_full": include_full})
        return cast(AuditHistory, self._c.request("GET", "/config/me/audit", query=query, team=team))

    def update(self, changes: ConfigDocument, *, team: Optional[str] = None) -> ConfigUpdateResult:
        """Applies ``changes`` to the team overrides as a JSON Merge Patch (RFC 7396): objects
        merge, ``None`` removes the team's own key (the inherited value applies again), lists and
        scalars replace. Applied: has ``version``; needing approval: has ``change_request_id`` and
        ``status == "pending_approval"``."""
        return cast(ConfigUpdateResult, self._c.request("PUT", "/config/me", body=changes, team=team))

    def pending(self, *, team: Optional[str] = None) -> ChangeRequestList:
        return cast(ChangeRequestList, self._c.request("GET", "/config/me/pending", team=team))

    def approve(self, change_request_id: str, *, comment: Optional[str] = None, team: Optional[str] = None) -> ChangeRequest:
        """As a listed approver (not the requester): applies the pending change as one new version."""
        body = _drop_none({"comment": comment})
        return cast(ChangeRequest, self._c.request("POST", f"/config/me/pending/{_seg(change_request_id)}/approve", body=body, team=team))

    def reject(self, change_request_id: str, *, comment: Optional[str] = None, team: Optional[str] = None) -> ChangeRequest:
        """As a listed approver (not the requester): rejects the pending change."""
        body = _drop_none({"comment": comment})
        return cast(ChangeRequest, self._c.request("POST", f"/config/me/pending/{_seg(change_request_id)}/reject", body=body, team=team))


class KnowledgeApi(_Resource):
    """``/kb/*``: the knowledge base."""

    def teach(
        self,
        content: str,
        type: KnowledgeType = "runbook",
        *,
        service: Optional[str] = None,
        tags: Optional[List[str]] = None,
        title: Optional[str] = None,
        team: Optional[str] = None,
    ) -> TeachResult:
        body = _drop_none({"content": content, "type": type, "service": service, "tags": tags, "title": title})
        return cast(TeachResult, self._c.request("POST", "/kb/teach", body=body, team=team))

    def retrieve(
        self,
        query: str,
        *,
        service: Optional[str] = None,
        top_k: Optional[int] = None,
        strategy: Optional[str] = None,
        team: Optional[str] = None,
    ) -> RetrieveResult:
        body = _drop_none({"query": query, "service": service, "top_k": top_k, "strategy": strategy})
        return cast(RetrieveResult, self._c.request("POST", "/kb/retrieve", body=body, team=team))

    def answer(
        self, question: str, *, include_sources: Optional[bool] = None, service: Optional[str] = None, team: Optional[str] = None
    ) -> AnswerResult:
        body = _drop_none({"question": question, "include_sources": include_sources, "service": service})
        return cast(AnswerResult, self._c.request("POST", "/kb/answer", body=body, team=team))

    def feedback(
        self,
        query_id: str,
        helpful: bool,
        *,
        comment: Optional[str] = None,
        document_id: Optional[str] = None,
        team: Optional[str] = None,
    ) -> None:
        body = _drop_none({"query_id": query_id, "helpful": helpful, "comment": comment, "document_id": document_id})
        self._c.request("POST", "/kb/feedback", body=body, team=team)

    def tree_stats(self, *, team: Optional[str] = None) -> TreeStats:
        return cast(TreeStats, self._c.request("GET", "/kb/tree/stats", team=team))

    def status(self, document_id: str, *, team: Optional[str] = None) -> DocumentStatus:
        return cast(DocumentStatus, self._c.request("GET", "/kb/status", query={"document_id": document_id}, team=team))

    def delete_document(self, document_id: str, *, team: Optional[str] = None) -> None:
        """Deletes a document of the team and its chunks; NotFoundError when the team has none."""
        self._c.request("DELETE", f"/kb/documents/{_seg(document_id)}", team=team)

    def patterns(
        self,
        *,
        query: Optional[str] = None,
        service: Optional[str] = None,
        limit: Optional[int] = None,
        team: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Learned patterns; ``query`` ranks them by match with the text, ``service`` keeps one
        service's, ``limit`` is 1..100 (default 20)."""
        params = _drop_none({"query": query, "service": service, "limit": limit})
        return cast(Dict[str, Any], self._c.request("GET", "/kb/patterns", query=params, team=team))

    def graph(self, entity: str, *, depth: Optional[int] = None, team: Optional[str] = None) -> Dict[str, Any]:
        """The knowledge-graph neighbourhood of ``entity``, ``depth`` 1..3 hops (default 1)."""
        params = _drop_none({"entity": entity, "depth": depth})
        return cast(Dict[str, Any], self._c.request("GET", "/kb/graph", query=params, team=team))

    def sources(self, *, team: Optional[str] = None) -> Dict[str, Any]:
        """The team's knowledge sources (``sources``: name, kind, url, ``state`` never/ok/error,
        ``last_sync_at``, ``last_success_at``, ``error``, ``documents``, and what the last sync
        added, updated, removed and left unchanged)."""
        return cast(Dict[str, Any], self._c.request("GET", "/kb/sources", team=team))

    def sync_sources(self, *, timeout: float = 600.0, team: Optional[str] = None) -> Dict[str, Any]:
        """Syncs every knowledge source of the team now (write permission) and answers once done
        with each source's status; a failed source is an ``error`` state, not an exception. A sync
        can take minutes: ``timeout`` (seconds) is 10 minutes by default."""
        return cast(Dict[str, Any], self._c.request("POST", "/kb/sources/sync", team=team, timeout=timeout))

    def upload_document(
        self,
        content: str,
        *,
        title: Optional[str] = None,
        type: Optional[KnowledgeType] = None,
        service: Optional[str] = None,
        tags: Optional[List[str]] = None,
        team: Optional[str] = None,
    ) -> TeachResult:
        """Markdown upload (answers like teach)."""
        body = _drop_none({"content": content, "title": title, "type": type, "service": service, "tags": tags})
        return cast(TeachResult, self._c.request("POST", "/kb/documents", body=body, team=team))


class ToolsApi(_Resource):
    """``/tools``: the team's tool servers and tools."""

    def list(self, *, refresh: Optional[bool] = None, team: Optional[str] = None) -> Dict[str, Any]:
        """Each enabled tool server (``servers``: health, ``breaker_state``, ``tools`` with
        ``description``, ``parameters``, ``read_only``, ``destructive`` and ``agents``) and the
        ``builtin_tools``."""
        query = _drop_none({"refresh": refresh})
        return cast(Dict[str, Any], self._c.request("GET", "/tools", query=query, team=team))


class WebhooksApi(_Resource):
    """``/webhooks/*``: the team's delivery log."""

    def deliveries(
        self,
        *,
        limit: Optional[int] = None,
        status: Optional[str] = None,
        channel: Optional[str] = None,
        team: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Recent webhook and chat deliveries of the team, newest first (``{"deliveries": [...]}``)."""
        query = _drop_none({"limit": limit, "status": status, "channel": channel})
        return cast(Dict[str, Any], self._c.request("GET", "/webhooks/deliveries", query=query, team=team))

    def redeliver(self, delivery_id: str, *, team: Optional[str] = None) -> Dict[str, Any]:
        """Sends a finished delivery again (``{"delivery": {...}}``)."""
        return cast(Dict[str, Any], self._c.request("POST", f"/webhooks/deliveries/{_seg(delivery_id)}/redeliver", team=team))


class AdminApi(_Resource):
    """``/admin/*``: organization administration (admin token only)."""

    def create_node(self, node_id: str, kind: str, name: str, parent_id: Optional[str] = None) -> Node:
        body = {"node_id": node_id, "parent_id": parent_id, "kind": kind, "name": name}
        return cast(Node, self._c.request("POST", "/admin/nodes", body=body))

    def get_node(self, node_id: str) -> Node:
        return cast(Node, self._c.request("GET", f"/admin/nodes/{_seg(node_id)}"))

    def list_nodes(self, *, parent_id: Optional[str] = None) -> NodeList:
        return cast(NodeList, self._c.request("GET", "/admin/nodes", query=_drop_none({"parent_id": parent_id})))

    def node_audit(
        self,
        node_id: str,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        include_full: Optional[bool] = None,
    ) -> AuditHistory:
        """Any node's audit, as ``config.audit`` shows a team's."""
        query = _drop_none({"limit": limit, "offset": offset, "include_full": include_full})
        return cast(AuditHistory, self._c.request("GET", f"/admin/nodes/{_seg(node_id)}/audit", query=query))

    def update_node_config(self, node_id: str, changes: ConfigDocument) -> ConfigUpdateResult:
        """JSON Merge Patch of the node's own config, as ``config.update`` (``None`` removes a key)."""
        return cast(ConfigUpdateResult, self._c.request("PUT", f"/admin/nodes/{_seg(node_id)}/config", body=changes))

    def create_token(
        self,
        team_node_id: str,
        owner: str,
        permissions: Optional[List[str]] = None,
        *,
        label: Optional[str] = None,
        expires_at: Optional[str] = None,
    ) -> Token:
        """Issues a team token; ``token`` in the answer is shown only this once."""
        body = _drop_none(
            {"permissions": permissions or ["read"], "owner": owner, "label": label, "expires_at": expires_at}
        )
        return cast(Token, self._c.request("POST", f"/admin/nodes/{_seg(team_node_id)}/tokens", body=body))

    def list_tokens(self, team_node_id: str) -> TokenList:
        return cast(TokenList, self._c.request("GET", f"/admin/nodes/{_seg(team_node_id)}/tokens"))

    def revoke_token(self, token_id: str) -> None:
        self._c.request("DELETE", f"/admin/tokens/{_seg(token_id)}")

    def list_change_requests(self, *, status: Optional[str] = None, team: Optional[str] = None) -> ChangeRequestList:
        query = _drop_none({"status": status, "team": team})
        return cast(ChangeRequestList, self._c.request("GET", "/admin/change-requests", query=query))

    def approve_change_request(self, change_request_id: str, *, comment: Optional[str] = None) -> ChangeRequest:
        body = _drop_none({"comment": comment})
        return cast(ChangeRequest, self._c.request("POST", f"/admin/change-requests/{_seg(change_request_id)}/approve", body=body))

    def reject_change_request(self, change_request_id: str, *, comment: Optional[str] = None) -> ChangeRequest:
        body = _drop_none({"comment": comment})
        return cast(ChangeRequest, self._c.request("POST", f"/admin/change-requests/{_seg(change_request_id)}/reject", body=body))
