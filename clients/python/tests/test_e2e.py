"""End-to-end tests of the Python client against a running Inquest service.

Run when INQUEST_URL and INQUEST_ADMIN_TOKEN name a running all-in-one service with its demo
team (tools/e2e/python-client.e2e.spec.ts starts one and runs this suite); skipped otherwise.
INQUEST_E2E_TRIGGER_LIMIT (the trigger limit the service was started with) enables the 429 test.
"""
import os
import sys
import time
import unittest
import uuid
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import inquest  # noqa: E402
from inquest import Client  # noqa: E402

URL = os.environ.get("INQUEST_URL")
ADMIN = os.environ.get("INQUEST_ADMIN_TOKEN")
TRIGGERS = int(os.environ.get("INQUEST_E2E_TRIGGER_LIMIT") or 0)


def wait_until(check: Callable[[], bool], timeout: float = 20.0) -> bool:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if check():
            return True
        time.sleep(0.2)
    return False


@unittest.skipUnless(URL and ADMIN, "needs INQUEST_URL and INQUEST_ADMIN_TOKEN of a running service")
class EndToEnd(unittest.TestCase):
    admin: Client
    team: Client
    demo: Client
    org: str
    team_id: str

    @classmethod
    def setUpClass(cls) -> None:
        suffix = uuid.uuid4().hex[:8]
        cls.org, group, cls.team_id = f"py-org-{suffix}", f"py-group-{suffix}", f"py-team-{suffix}"
        cls.admin = Client(URL, token=ADMIN)
        cls.admin.admin.create_node(cls.org, "org", "Python org")
        cls.admin.admin.create_node(group, "group", "Python group", parent_id=cls.org)
        cls.admin.admin.create_node(cls.team_id, "team", "Python team", parent_id=group)
        tok = cls.admin.admin.create_token(cls.team_id, "py@clients.test", ["read", "write"], label="python e2e")
        cls.team = Client(URL, token=tok["token"])
        demo_tok = cls.admin.admin.create_token("demo-team", "py@clients.test", ["read", "write"])
        cls.demo = Client(URL, token=demo_tok["token"])

    @classmethod
    def tearDownClass(cls) -> None:
        for c in (cls.admin, cls.team, cls.demo):
            c.close()

    def client_for(self, token: str, **kw: Any) -> Client:
        c = Client(URL, token=token, **kw)
        self.addCleanup(c.close)
        return c

    # health, admin -----------------------------------------------------------------------------
    def test_health_ready_openapi(self) -> None:
        with Client(URL, token="") as anonymous:
            self.assertEqual(anonymous.health()["status"], "ok")
            self.assertIn("services", anonymous.ready())
            self.assertTrue(str(anonymous.openapi()["openapi"]).startswith("3.1"))

    def test_admin_nodes_and_errors(self) -> None:
        node = self.admin.admin.get_node(self.team_id)
        self.assertEqual((node["kind"], node["org_id"]), ("team", self.org))
        self.assertIsInstance(node["config"], dict)
        roots = [n["node_id"] for n in self.admin.admin.list_nodes()["nodes"]]
        self.assertIn(self.org, roots)
        with self.assertRaises(inquest.ConflictError) as dup:
            self.admin.admin.create_node(self.org, "org", "again")
        self.assertEqual(dup.exception.status, 409)
        self.assertTrue(dup.exception.request_id)
        with self.assertRaises(inquest.NotFoundError):
            self.admin.admin.create_node(f"orphan-{uuid.uuid4().hex[:6]}", "team", "x", parent_id="nowhere-at-all")
        applied = self.admin.admin.update_node_config(self.org, {"chat_channel": "#py-org"})
        self.assertIn("chat_channel", applied["changed_fields"])

    def test_tokens_list_and_revoke(self) -> None:
        doomed = self.admin.admin.create_token(self.team_id, "gone@clients.test")
        self.assertEqual(doomed["permissions"], ["read"])
        ids = [t["token_id"] for t in self.admin.admin.list_tokens(self.team_id)["tokens"]]
        self.assertIn(doomed["token_id"], ids)
        c = self.client_for(doomed["token"])
        self.assertEqual(c.config.effective()["team_node_id"], self.team_id)
        self.admin.admin.revoke_token(doomed["token_id"])
        with self.assertRaises(inquest.UnauthorizedError) as e:
            c.config.effective()
        self.assertEqual((e.exception.code, e.exception.status), ("unauthorized", 401))

    # configuration -----------------------------------------------------------------------------
    def test_config_read_update_audit_and_errors(self) -> None:
        eff = self.team.config.effective()
        self.assertEqual((eff["team_name"], eff["org_id"], eff["team_node_id"]), ("Python team", self.org, self.team_id))
        raw = self.team.config.raw()
        self.assertEqual(raw["lineage"][0], self.org)
        self.assertEqual(raw["lineage"][-1], self.team_id)
        res = self.team.config.update({"agents": {"investigation_agent": {"timeout": 75}}})
        self.assertEqual(res["changed_fields"], ["agents.investigation_agent.timeout"])
        audit = self.team.config.audit(limit=1, include_full=False)
        self.assertEqual(audit["history"][0]["version"], res["version"])
        self.assertEqual(audit["history"][0]["changed_by"], "py@clients.test")
        self.assertNotIn("full_config", audit["history"][0])
        self.assertEqual(self.team.config.pending()["change_requests"], [])
        with self.assertRaises(inquest.InvalidFieldError) as f:
            self.team.config.update({"org_id": "other"})
        self.assertEqual(f.exception.field, "org_id")
        with self.assertRaises(inquest.ValidationError) as v:
            self.team.config.update({"knowledge_base": {"retrieval": {"strategy": "psychic"}}})
        self.assertEqual((v.exception.details or {}).get("field"), "knowledge_base.retrieval.strategy")
        ro = self.admin.admin.create_token(self.team_id, "ro@clients.test", ["read"])
        with self.assertRaises(inquest.ForbiddenError):
            self.client_for(ro["token"]).config.update({"chat_channel": "#no"})
        with self.assertRaises(inquest.InvalidRequestError):
            self.admin.config.effective()  # admin token without a team
        self.assertEqual(self.admin.config.effective(team=self.team_id)["team_node_id"], self.team_id)

    def test_config_approval_flow(self) -> None:
        suffix = uuid.uuid4().hex[:6]
        team = f"py-approve-{suffix}"
        self.admin.admin.create_node(team, "team", "Approval team", parent_id=self.org)
        self.admin.admin.update_node_config(team, {"feature_flags": {"require_approval": True}, "approval": {"approvers": ["lead@clients.test"]}})
        c = self.client_for(self.admin.admin.create_token(team, "req@clients.test", ["read", "write"])["token"])
        res = c.config.update({"chat_channel": "#approved"})
        self.assertEqual(res["status"], "pending_approval")
        self.assertEqual(res["approvers"], ["lead@clients.test"])
        crs = self.admin.admin.list_change_requests(status="pending_approval", team=team)["change_requests"]
        self.assertEqual([cr["change_request_id"] for cr in crs], [res["change_request_id"]])
        self.assertEqual(self.admin.admin.approve_change_request(res["change_request_id"], comment="ok")["status"], "approved")
        self.assertEqual(c.config.effective()["chat_channel"], "#approved")
        second = c.config.update({"chat_channel": "#never"})
        self.assertEqual(self.admin.admin.reject_change_request(second["change_request_id"])["status"], "rejected")
        self.assertEqual(c.config.effective()["chat_channel"], "#approved")

    # knowledge ---------------------------------------------------------------------------------
    def test_knowledge_base(self) -> None:
        taught = self.team.kb.teach(
            "# Disk full\nWhen the ledger volume is full, expand the PVC to 200Gi and compact the WAL.",
            "runbook",
            service="ledger",
            tags=["disk"],
            title="ledger-disk.md",
        )
        self.assertEqual(taught["level"], "L1")
        self.assertTrue(wait_until(lambda: self.team.kb.status(taught["document_id"])["status"] == "indexed"))
        found = self.team.kb.retrieve("ledger volume full expand PVC", top_k=3)
        self.assertIn(taught["document_id"], [r["document_id"] for r in found["results"]])
        answer = self.team.kb.answer("What to do when the ledger disk is full?", include_sources=True)
        self.assertTrue(answer["answer"])
        self.assertIn(taught["document_id"], [s["document_id"] for s in answer.get("sources", [])])
        self.assertIsNone(self.team.kb.feedback(found["query_id"], True, comment="good"))
        self.assertGreaterEqual(self.team.kb.tree_stats()["total_documents"], 1)
        self.assertEqual(self.team.kb.upload_document("# On-call\nPage ledger on-call.", title="oncall.md", type="oncall")["level"], "L4")
        self.assertIsInstance(self.team.kb.patterns(), dict)
        self.assertIsInstance(self.team.kb.graph("ledger"), dict)
        with self.assertRaises(inquest.ValidationError):
            self.team.kb.teach("x", "nonsense")  # type: ignore[arg-type]
        with self.assertRaises(inquest.NotFoundError):
            self.team.kb.status("doc_missing")
        self.assertIsInstance(self.team.webhooks.deliveries(limit=5)["deliveries"], list)

    # investigations ----------------------------------------------------------------------------
    def test_sync_run_and_async_poll_to_completion(self) -> None:
        res = self.demo.agents.run("planner", "checkout is returning 500s", context={"service": "checkout", "namespace": "shop"})
        self.assertEqual(res["status"], "completed")
        self.assertTrue(res["result"]["root_cause"]["description"])
        started = self.demo.agents.start("investigation_agent", "checkout latency", context={"service": "checkout"})
        self.assertEqual(started["poll_url"], f"/api/v1/agents/status/{started['investigation_id']}")
        polls = []
        done = self.demo.wait_for_investigation(started["investigation_id"], on_poll=polls.append)
        self.assertEqual(done["status"], "completed")
        self.assertEqual(polls[-1]["status"], "completed")
        with self.assertRaises(inquest.ConflictError):
            self.demo.agents.cancel(started["investigation_id"])
        page = self.demo.agents.list(limit=1)
        self.assertEqual(page["pagination"]["limit"], 1)
        everything = list(self.demo.agents.list_all(page_size=1))
        self.assertEqual(len(everything), page["pagination"]["total"])
        with self.assertRaises(inquest.NotFoundError):
            self.demo.agents.status("inv_missing")

    def test_cancel_and_poll_to_cancelled(self) -> None:
        c = self.client_for(self.admin.admin.create_token("demo-team", "cancel@clients.test", ["read", "write"])["token"])
        started = c.agents.start("planner", "cancel me", context={"service": "checkout"})
        try:
            res = c.agents.cancel(started["investigation_id"])
        except inquest.ConflictError:
            return  # the deterministic run finished first; the API said so correctly
        self.assertEqual(res["status"], "cancelled")
        self.assertEqual(c.wait_for_investigation(started["investigation_id"], timeout=30)["status"], "cancelled")

    @unittest.skipUnless(TRIGGERS, "needs INQUEST_E2E_TRIGGER_LIMIT")
    def test_rate_limit_429_then_retry_succeeds(self) -> None:
        tok = self.admin.admin.create_token("demo-team", "limits@clients.test", ["read", "write"])["token"]
        no_retry = self.client_for(tok, max_retries=0)
        for _ in range(TRIGGERS):
            no_retry.agents.start("planner", "rate limit probe")
        with self.assertRaises(inquest.RateLimitedError) as e:
            no_retry.agents.start("planner", "rate limit probe")
        self.assertEqual(e.exception.status, 429)
        self.assertGreaterEqual(e.exception.retry_after or 0, 1)
        waits = []

        def sleep(s: float) -> None:
            waits.append(s)
            time.sleep(s)

        retrying = self.client_for(tok, max_retries=2, max_retry_after=61, sleep=sleep)
        self.assertEqual(retrying.agents.start("planner", "rate limit probe")["status"], "running")
        self.assertGreaterEqual(len(waits), 1)
        self.assertGreaterEqual(waits[0], 1)


if __name__ == "__main__":
    unittest.main()
