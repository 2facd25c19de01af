"""Official Python client for the Inquest incident investigation API (standard library only)."""
from .client import TERMINAL_STATUSES, AdminApi, AgentsApi, Client, ConfigApi, KnowledgeApi, WebhooksApi
from .errors import (
    ConflictError,
    ForbiddenError,
    InquestError,
    InternalError,
    InvalidFieldError,
    InvalidRequestError,
    NetworkError,
    NotFoundError,
    RateLimitedError,
    RequestTimeoutError,
    UnauthorizedError,
    UnavailableError,
    ValidationError,
    WaitTimeoutError,
)

__version__ = "0.1.0"

__all__ = [
    "Client",
    "AgentsApi",
    "ConfigApi",
    "KnowledgeApi",
    "WebhooksApi",
    "AdminApi",
    "TERMINAL_STATUSES",
    "InquestError",
    "InvalidRequestError",
    "InvalidFieldError",
    "ValidationError",
    "UnauthorizedError",
    "ForbiddenError",
    "NotFoundError",
    "ConflictError",
    "RateLimitedError",
    "UnavailableError",
    "InternalError",
    "NetworkError",
    "RequestTimeoutError",
    "WaitTimeoutError",
]
