"""Client behaviour against a scripted HTTP server on loopback: requests, errors, retries, polling."""
import json
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import inquest  # noqa: E402
from inquest import Client  # noqa: E402

Reply = Dict[str, Any]


class ScriptedServer:
    """Answers `METHOD /path` from a table of reply lists (the last reply repeats)."""

    def __init__(self, routes: Dict[str, Any]) -> None:
        self.routes = routes
        self.counters: Dict[str, int] = {}
        self.requests: List[Dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                req = {
                    "method": self.command,
                    "path": parts.path,
                    "query": parse_qs(parts.query),
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": json.loads(raw) if raw else None,
                }
                outer.requests.append(req)
                reply = outer.reply(req)
                if reply.get("delay"):
                    time.sleep(reply["delay"])
                body = reply.get("body")
                data = b"" if body is None else (body.encode() if isinstance(body, str) else json.dumps(body).encode())
                self.send_response(reply["status"])
                self.send_header("x-request-id", f"req-{len(outer.requests)}")
                for k, v in (reply.get("headers") or {}).items():
                    self.send_header(k, v)
                if data:
                    self.send_header("content-type", "text/plain" if isinstance(body, str) else "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            do_GET = do_POST = do_PUT = do_DELETE = _handle

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def wait_for_requests(self, n: int, within: float = 5.0) -> None:
        """Until the handler threads have recorded n requests (a client that timed out may be
        faster than the thread that reads its request), or `within` seconds have passed."""
        deadline = time.monotonic() + within
        while len(self.requests) < n and time.monotonic() < deadline:
            time.sleep(0.01)

    def reply(self, req: Dict[str, Any]) -> Reply:
        key = f"{req['method']} {req['path']}"
        entry = self.routes.get(key)
        if entry is None:
            return {"status": 404, "body": {"error": {"code": "not_found", "message": f"no route {key}"}}}
        if callable(entry):
            return entry(req)
        if isinstance(entry, dict):
            return entry
        n = self.counters.get(key, 0)
        self.counters[key] = n + 1
        return entry[min(n, len(entry) - 1)]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


API = "/api/v1"


class ClientTestCase(unittest.TestCase):
    def serve(self, routes: Dict[str, Any]) -> ScriptedServer:
        s = ScriptedServer(routes)
        self.addCleanup(s.close)
        return s

    def client(self, s: ScriptedServer, **kw: Any) -> Tuple[Client, List[float]]:
        sleeps: List[float] = []
        kw.setdefault("token", "tok_abc.secret")
        c = Client(s.url, sleep=sleeps.append, **kw)
        return c, sleeps


class RequestTests(ClientTestCase):
    def test_run_sends_token_and_json_and_returns_body(self) -> None:
        s = self.serve({f"POST {API}/agents/run": {"status": 202, "body": {"investigation_id": "inv_1", "status": "running", "poll_url": "p", "created_at": "c"}}})
        c, _ = self.client(s)
        res = c.agents.start("planner", "api 5xx", context={"service": "api"})
        self.assertEqual(res["investigation_id"], "inv_1")
        req = s.requests[0]
        self.assertEqual(req["headers"]["authorization"], "Bearer tok_abc.secret")
        self.assertEqual(req["headers"]["content-type"], "application/json")
        self.assertNotIn("x-inquest-team", req["headers"])
        self.assertEqual(req["body"], {"agent_name": "planner", "message": "api 5xx", "context": {"service": "api"}, "async": True})

    def test_team_header_env_defaults_and_base_url_forms(self) -> None:
        s = self.serve({f"GET {API}/config/me/effective": {"status": 200, "body": {"team_name": "Payments"}}})
        c, _ = self.client(s, token="admin.x", team="payments")
        self.assertEqual(c.config.effective(), {"team_name": "Payments"})
        c.config.effective(team="other")
        self.assertEqual([r["headers"]["x-inquest-team"] for r in s.requests], ["payments", "other"])
        self.assertEqual(Client(s.url + "/api/v1/", token="t").base_url, s.url + "/api/v1")

    def test_every_endpoint_method_and_path(self) -> None:
        seen: List[str] = []

        def record(req: Dict[str, Any]) -> Reply:
            q = "&".join(f"{k}={v[0]}" for k, v in sorted(req["query"].items()))
            seen.append(f"{req['method']} {req['path']}" + (f"?{q}" if q else ""))
            if req["method"] == "DELETE" or req["path"].endswith("/kb/feedback"):
                return {"status": 204}
            return {"status": 200, "body": {}}

        s = ScriptedServer({})
        self.addCleanup(s.close)
        s.reply = record  # type: ignore[assignment]
        c, _ = self.client(s)
        c.agents.status("a/b")
        c.agents.list(limit=5, status="failed")
        c.agents.cancel("i1")
        c.config.raw()
        c.config.audit(limit=3, include_full=False)
        c.config.update({"chat_channel": "#x"})
        c.config.pending()
        c.config.audit(limit=3, offset=6)
        c.config.approve("cr_9", comment="ok")
        c.config.reject("cr_8")
        c.tools.list(refresh=True)
        c.kb.teach("content", "runbook", tags=["a"])
        c.kb.retrieve("q", top_k=2)
        c.kb.answer("q", include_sources=True)
        self.assertIsNone(c.kb.feedback("q1", True))
        c.kb.tree_stats()
        c.kb.status("doc_1")
        c.kb.patterns()
        c.kb.graph("api")
        c.kb.patterns(query="pool exhausted", service="checkout", limit=5)
        c.kb.graph("api", depth=2)
        c.kb.upload_document("# x")
        self.assertIsNone(c.kb.delete_document("doc_1"))
        c.admin.create_node("acme", "org", "Acme")
        c.admin.get_node("acme")
        c.admin.list_nodes(parent_id="acme")
        c.admin.update_node_config("acme", {"chat_channel": "#a"})
        c.admin.node_audit("acme", limit=2, offset=4)
        c.admin.create_token("pay", "a@b.c", ["read", "write"])
        c.admin.list_tokens("pay")
        self.assertIsNone(c.admin.revoke_token("tok_1"))
        c.admin.list_change_requests(status="pending_approval")
        c.admin.approve_change_request("cr_1", comment="ok")
        c.admin.reject_change_request("cr_2")
        c.webhooks.deliveries(limit=5, status="failed")
        c.webhooks.redeliver("dlv_1")
        c.health()
        c.openapi()
        self.assertEqual(
            seen,
            [
                "GET /api/v1/agents/status/a%2Fb",
                "GET /api/v1/agents/investigations?limit=5&status=failed",
                "POST /api/v1/agents/status/i1/cancel",
                "GET /api/v1/config/me/raw",
                "GET /api/v1/config/me/audit?include_full=false&limit=3",
                "PUT /api/v1/config/me",
                "GET /api/v1/config/me/pending",
                "GET /api/v1/config/me/audit?limit=3&offset=6",
                "POST /api/v1/config/me/pending/cr_9/approve",
                "POST /api/v1/config/me/pending/cr_8/reject",
                "GET /api/v1/tools?refresh=true",
                "POST /api/v1/kb/teach",
                "POST /api/v1/kb/retrieve",
                "POST /api/v1/kb/answer",
                "POST /api/v1/kb/feedback",
                "GET /api/v1/kb/tree/stats",
                "GET /api/v1/kb/status?document_id=doc_1",
                "GET /api/v1/kb/patterns",
                "GET /api/v1/kb/graph?entity=api",
                "GET /api/v1/kb/patterns?limit=5&query=pool exhausted&service=checkout",
                "GET /api/v1/kb/graph?depth=2&entity=api",
                "POST /api/v1/kb/documents",
                "DELETE /api/v1/kb/documents/doc_1",
                "POST /api/v1/admin/nodes",
                "GET /api/v1/admin/nodes/acme",
                "GET /api/v1/admin/nodes?parent_id=acme",
                "PUT /api/v1/admin/nodes/acme/config",
                "GET /api/v1/admin/nodes/acme/audit?limit=2&offset=4",
                "POST /api/v1/admin/nodes/pay/tokens",
                "GET /api/v1/admin/nodes/pay/tokens",
                "DELETE /api/v1/admin/tokens/tok_1",
                "GET /api/v1/admin/change-requests?status=pending_approval",
                "POST /api/v1/admin/change-requests/cr_1/approve",
                "POST /api/v1/admin/change-requests/cr_2/reject",
                "GET /api/v1/webhooks/deliveries?limit=5&status=failed",
                "POST /api/v1/webhooks/deliveries/dlv_1/redeliver",
                "GET /healthz",
                "GET /api/v1/openapi.json",
            ],
        )
        self.assertEqual(s.requests[11]["body"], {"content": "content", "type": "runbook", "tags": ["a"]})
        self.assertEqual(s.requests[28]["body"], {"permissions": ["read", "write"], "owner": "a@b.c"})
        self.assertNotIn("authorization", s.requests[-1]["headers"])

    def test_context_manager_closes(self) -> None:
        s = self.serve({f"GET {API}/config/me/raw": {"status": 200, "body": {"lineage": [], "configs": {}}}})
        with Client(s.url, token="t.s") as c:
            self.assertEqual(c.config.raw()["lineage"], [])
        with self.assertRaises(RuntimeError):
            c.config.raw()


class ErrorTests(ClientTestCase):
    def test_typed_exceptions_with_code_message_request_id_field_details(self) -> None:
        s = self.serve(
            {
                f"PUT {API}/config/me": [
                    {"status": 400, "body": {"error": {"code": "invalid_field", "message": "team_name is immutable", "request_id": "r1", "field": "team_name"}}},
                    {
                        "status": 400,
                        "body": {
                            "error": {
                                "code": "validation_error",
                                "message": "invalid",
                                "details": {"field": "agents.planner.timeout", "error": "must be positive"},
                                "errors": [{"field": "agents.planner.timeout", "error": "must be positive"}],
                            }
                        },
                    },
                    {"status": 403, "body": {"error": {"code": "forbidden", "message": "needs write"}}},
                    {"status": 401, "body": {"error": {"code": "unauthorized", "message": "bad token"}}},
                    {"status": 409, "body": {"error": {"code": "conflict", "message": "c"}}},
                    {"status": 500, "body": {"error": {"code": "internal", "message": "boom"}}},
                ]
            }
        )
        c, sleeps = self.client(s)
        with self.assertRaises(inquest.InvalidFieldError) as e1:
            c.config.update({"team_name": "x"})
        self.assertEqual((e1.exception.code, e1.exception.field, e1.exception.request_id, e1.exception.status), ("invalid_field", "team_name", "r1", 400))
        self.assertEqual(e1.exception.message, "team_name is immutable")
        with self.assertRaises(inquest.ValidationError) as e2:
            c.config.update({})
        self.assertEqual(e2.exception.details, {"field": "agents.planner.timeout", "error": "must be positive"})
        self.assertEqual(len(e2.exception.errors or []), 1)
        with self.assertRaises(inquest.ForbiddenError) as e3:
            c.config.update({})
        self.assertEqual(e3.exception.request_id, "req-3")  # from the X-Request-Id header
        with self.assertRaises(inquest.UnauthorizedError):
            c.config.update({})
        with self.assertRaises(inquest.ConflictError):
            c.config.update({})
        with self.assertRaises(inquest.InternalError):
            c.config.update({})
        self.assertEqual(sleeps, [])
        self.assertEqual(len(s.requests), 6)

    def test_non_json_error_page_and_refused_connection(self) -> None:
        s = self.serve({f"GET {API}/config/me/raw": {"status": 418, "body": "<html>teapot</html>"}})
        c, _ = self.client(s)
        with self.assertRaises(inquest.InquestError) as e:
            c.config.raw()
        self.assertEqual((e.exception.code, e.exception.body), ("http_418", "<html>teapot</html>"))
        url = s.url
        s.close()
        c2 = Client(url, token="t.s", max_retries=2, sleep=lambda _s: None)
        with self.assertRaises(inquest.NetworkError) as ne:
            c2.config.raw()
        self.assertEqual((ne.exception.code, ne.exception.status), ("network_error", 0))
        self.assertIn("Cannot reach the Inquest API", str(ne.exception))

    def test_kb_sources_and_a_sync_with_its_own_timeout(self) -> None:
        source = {"name": "wiki", "kind": "web", "state": "error", "error": "answered 501"}
        s = self.serve(
            {
                f"GET {API}/kb/sources": {"status": 200, "body": {"sources": [source]}},
                f"POST {API}/kb/sources/sync": {
                    "status": 200,
                    "body": {"sources": [{**source, "state": "ok", "error": None}]},
                    "delay": 0.3,
                },
            }
        )
        c, _ = self.client(s, timeout=0.1)
        self.assertEqual(c.kb.sources(), {"sources": [source]})
        with self.assertRaises(inquest.RequestTimeoutError):
            c.kb.sync_sources(timeout=0.1)
        self.assertEqual(c.kb.sync_sources()["sources"][0]["state"], "ok")
        self.assertEqual(
            [f"{r['method']} {r['path']}" for r in s.requests],
            [f"GET {API}/kb/sources", f"POST {API}/kb/sources/sync", f"POST {API}/kb/sources/sync"],
        )

    def test_request_timeout(self) -> None:
        s = self.serve({f"POST {API}/kb/answer": {"status": 200, "body": {}, "delay": 0.5}})
        c, _ = self.client(s, timeout=0.1)
        with self.assertRaises(inquest.RequestTimeoutError) as e:
            c.kb.answer("q")
        self.assertEqual(e.exception.code, "timeout")
        s.wait_for_requests(1)
        self.assertEqual(len(s.requests), 1)  # POST without an answer is not repeated


class RetryTests(ClientTestCase):
    def test_429_waits_retry_after_then_succeeds(self) -> None:
        s = self.serve(
            {
                f"POST {API}/agents/run": [
                    {"status": 429, "body": {"error": {"code": "rate_limited", "message": "slow", "retry_after": 2}}, "headers": {"Retry-After": "2"}},
                    {"status": 429, "body": {"error": {"code": "rate_limited", "message": "slow", "retry_after": 1}}},
                    {"status": 202, "body": {"investigation_id": "inv_9", "status": "running", "poll_url": "p", "created_at": "c"}},
                ]
            }
        )
        c, sleeps = self.client(s)
        self.assertEqual(c.agents.start("planner", "m")["investigation_id"], "inv_9")
        self.assertEqual(sleeps, [2.0, 1.0])

    def test_429_header_fallback_gives_up_after_max_retries(self) -> None:
        s = self.serve({f"GET {API}/kb/tree/stats": {"status": 429, "body": {"error": {"code": "rate_limited", "message": "x"}}, "headers": {"Retry-After": "3"}}})
        c, sleeps = self.client(s, max_retries=2)
        with self.assertRaises(inquest.RateLimitedError) as e:
            c.kb.tree_stats()
        self.assertEqual(e.exception.retry_after, 3.0)
        self.assertEqual(sleeps, [3.0, 3.0])
        self.assertEqual(len(s.requests), 3)

    def test_429_longer_than_cap_is_raised_at_once(self) -> None:
        s = self.serve({f"GET {API}/kb/tree/stats": {"status": 429, "body": {"error": {"code": "rate_limited", "message": "x", "retry_after": 120}}}})
        c, sleeps = self.client(s)
        with self.assertRaises(inquest.RateLimitedError):
            c.kb.tree_stats()
        self.assertEqual(sleeps, [])

    def test_5xx_gateway_errors_back_off_doubling_under_cap(self) -> None:
        s = self.serve(
            {
                f"GET {API}/config/me/effective": [
                    {"status": 502, "body": "bad gateway"},
                    {"status": 503, "body": {"error": {"code": "unavailable", "message": "down"}}},
                    {"status": 504},
                    {"status": 503},
                    {"status": 200, "body": {"chat_channel": "#ops"}},
                ]
            }
        )
        c, sleeps = self.client(s, max_retries=5, backoff_base=0.1, backoff_cap=0.3)
        self.assertEqual(c.config.effective(), {"chat_channel": "#ops"})
        caps = [0.1, 0.2, 0.3, 0.3]
        self.assertEqual(len(sleeps), 4)
        for slept, cap in zip(sleeps, caps):
            self.assertGreaterEqual(slept, cap / 2)
            self.assertLessEqual(slept, cap)

    def test_really_sleeps_by_default(self) -> None:
        s = self.serve(
            {
                f"GET {API}/kb/tree/stats": [
                    {"status": 429, "body": {"error": {"code": "rate_limited", "message": "x", "retry_after": 1}}},
                    {"status": 200, "body": {"total_documents": 1}},
                ]
            }
        )
        t0 = time.monotonic()
        self.assertEqual(Client(s.url, token="t.s").kb.tree_stats(), {"total_documents": 1})
        self.assertGreaterEqual(time.monotonic() - t0, 0.95)


def running(step: str, done: int) -> Reply:
    return {"status": 200, "body": {"investigation_id": "inv_1", "status": "running", "agent": "planner", "message": "m", "progress": {"current_step": step, "steps_completed": done, "steps_total": 3}}}


def terminal(status: str) -> Reply:
    return {"status": 200, "body": {"investigation_id": "inv_1", "status": status, "agent": "planner", "message": "m"}}


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0
        self.sleeps: List[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.t += s


class WaitTests(ClientTestCase):
    def test_polls_1s_doubling_capped_at_10s_until_completed(self) -> None:
        s = self.serve({f"GET {API}/agents/status/inv_1": [running("a", 0)] * 6 + [terminal("completed")]})
        c, _ = self.client(s)
        clk = FakeClock()
        seen: List[str] = []
        inv = c.wait_for_investigation("inv_1", clock=clk.now, sleep=clk.sleep, on_poll=lambda i: seen.append(i["status"]))
        self.assertEqual(inv["status"], "completed")
        self.assertEqual(clk.sleeps, [1, 2, 4, 8, 10, 10])
        self.assertEqual(seen, ["running"] * 6 + ["completed"])

    def test_stops_on_failed_and_cancelled(self) -> None:
        for status in ("failed", "cancelled"):
            s = self.serve({f"GET {API}/agents/status/inv_1": [running("a", 0), terminal(status)]})
            c, _ = self.client(s)
            clk = FakeClock()
            self.assertEqual(c.agents.wait_for_investigation("inv_1", clock=clk.now, sleep=clk.sleep)["status"], status)
            self.assertEqual(clk.sleeps, [1])

    def test_overall_cap_raises_wait_timeout(self) -> None:
        s = self.serve({f"GET {API}/agents/status/inv_1": running("a", 0)})
        c, _ = self.client(s)
        clk = FakeClock()
        with self.assertRaises(inquest.WaitTimeoutError) as e:
            c.wait_for_investigation("inv_1", timeout=30, clock=clk.now, sleep=clk.sleep)
        self.assertEqual(e.exception.code, "wait_timeout")
        self.assertEqual(e.exception.body["status"], "running")
        self.assertEqual(clk.sleeps, [1, 2, 4, 8, 10, 5])

    def test_stop_event_ends_the_wait_promptly(self) -> None:
        s = self.serve({f"GET {API}/agents/status/inv_1": running("a", 0)})
        c, _ = self.client(s)
        stop = threading.Event()
        threading.Timer(0.2, stop.set).start()
        t0 = time.monotonic()
        with self.assertRaises(InterruptedError):
            c.wait_for_investigation("inv_1", stop=stop)
        self.assertLess(time.monotonic() - t0, 0.9)
        self.assertEqual(len(s.requests), 1)


class PaginationTests(ClientTestCase):
    def test_list_all_walks_every_page(self) -> None:
        items = [{"investigation_id": f"inv_{i}", "status": "completed", "agent": "planner", "message": "m", "created_at": "c"} for i in range(7)]

        def page(req: Dict[str, Any]) -> Reply:
            limit, offset = int(req["query"]["limit"][0]), int(req["query"]["offset"][0])
            return {"status": 200, "body": {"investigations": items[offset : offset + limit], "pagination": {"total": 7, "limit": limit, "offset": offset}}}

        s = self.serve({f"GET {API}/agents/investigations": page})
        c, _ = self.client(s)
        ids = [i["investigation_id"] for i in c.agents.list_all(page_size=3)]
        self.assertEqual(ids, [f"inv_{i}" for i in range(7)])
        self.assertEqual(len(s.requests), 3)


if __name__ == "__main__":
    unittest.main()
