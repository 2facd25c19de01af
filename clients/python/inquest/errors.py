"""Exceptions raised by the Inquest client: one class per error code, all under InquestError."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Type


class InquestError(Exception):
    """Any failure of a client call.

    ``code`` is the API's machine code (``validation_error``, ``rate_limited``...) or a client
    one (``network_error``, ``timeout``, ``wait_timeout``, ``invalid_response``); ``status`` is
    the HTTP status, 0 when no answer arrived.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status: int = 0,
        request_id: Optional[str] = None,
        field: Optional[str] = None,
        details: Optional[Dict[str, str]] = None,
        errors: Optional[List[Dict[str, str]]] = None,
        retry_after: Optional[float] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.request_id = request_id
        self.field = field
        self.details = details
        self.errors = errors
        self.retry_after = retry_after
        self.body = body

    def __str__(self) -> str:
        extra = f" [{self.code}"
        if self.status:
            extra += f", HTTP {self.status}"
        if self.request_id:
            extra += f", request {self.request_id}"
        return f"{self.message}{extra}]"


class InvalidRequestError(InquestError):
    """400 invalid_request."""


class InvalidFieldError(InquestError):
    """400 invalid_field: ``field`` names it."""


class ValidationError(InquestError):
    """400 validation_error: ``details`` is the first problem, ``errors`` all of them."""


class UnauthorizedError(InquestError):
    """401 unauthorized."""


class ForbiddenError(InquestError):
    """403 forbidden."""


class NotFoundError(InquestError):
    """404 not_found."""


class ConflictError(InquestError):
    """409 conflict."""


class RateLimitedError(InquestError):
    """429 rate_limited: ``retry_after`` seconds."""


class UnavailableError(InquestError):
    """503 unavailable (and 502/504 from a proxy)."""


class InternalError(InquestError):
    """500 internal."""


class NetworkError(InquestError):
    """No HTTP answer (connection refused, DNS, reset)."""


class RequestTimeoutError(InquestError):
    """One request ran past the client's timeout."""


class WaitTimeoutError(InquestError):
    """wait_for_investigation ran past its overall cap; ``body`` is the last status read."""


ERROR_CLASSES: Dict[str, Type[InquestError]] = {
    "invalid_request": InvalidRequestError,
    "invalid_field": InvalidFieldError,
    "validation_error": ValidationError,
    "unauthorized": UnauthorizedError,
    "forbidden": ForbiddenError,
    "not_found": NotFoundError,
    "conflict": ConflictError,
    "rate_limited": RateLimitedError,
    "unavailable": UnavailableError,
    "internal": InternalError,
}

_CODE_BY_STATUS = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    500: "internal",
    502: "unavailable",
    503: "unavailable",
    504: "unavailable",
}


def _problem(v: Any) -> Optional[Dict[str, str]]:
    if isinstance(v, dict) and isinstance(v.get("field"), str) and isinstance(v.get("error"), str):
        return {"field": v["field"], "error": v["error"]}
    return None


def error_from_response(status: int, body: Any, headers: Mapping[str, str]) -> InquestError:
    """The typed exception for a non-2xx answer; tolerates bodies that are not the API's shape."""
    member = body.get("error") if isinstance(body, dict) else None
    m: Dict[str, Any] = member if isinstance(member, dict) else {}
    code = m.get("code") if isinstance(m.get("code"), str) and m.get("code") else None
    code = code or _CODE_BY_STATUS.get(status, f"http_{status}")
    message = m.get("message") if isinstance(m.get("message"), str) and m.get("message") else None
    message = message or f"HTTP {status} from the Inquest API"
    retry_after: Optional[float] = None
    if isinstance(m.get("retry_after"), (int, float)):
        retry_after = float(m["retry_after"])
    else:
        try:
            header = float(headers.get("retry-after") or "")
            retry_after = header if header > 0 else None
        except ValueError:
            retry_after = None
    errors = m.get("errors")
    cls = ERROR_CLASSES.get(code, InquestError)
    return cls(
        message,
        code=code,
        status=status,
        request_id=m.get("request_id") if isinstance(m.get("request_id"), str) else headers.get("x-request-id"),
        field=m.get("field") if isinstance(m.get("field"), str) else None,
        details=_problem(m.get("details")),
        errors=[p for p in (_problem(e) for e in errors) if p] if isinstance(errors, list) else None,
        retry_after=retry_after,
        body=body,
    )
