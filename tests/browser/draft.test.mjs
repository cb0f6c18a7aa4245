// The client's draft (crates/server/client/draft.js) puts parts into a command as the server's
// rule sets do (tabletop's apply_draft): keyed array entries replaced or appended, a value that
// is null or lacks the key field leaving the draft unchanged, fields set, pointers into nothing
// ignored.

import { test } from "node:test";
import assert from "node:assert/strict";
import { applyDraft, pointerKeys, describe } from "../../crates/server/client/draft.js";

const orders = { kind: "write", orders: [{ unit: 0, order: { kind: "hold" } }, { unit: 1, order: null }] };

test("a keyed entry is replaced, a new one appended, the draft given left alone", () => {
  const replaced = applyDraft(orders, { kind: "draft", at: "/orders", key: "unit", value: { unit: 1, order: { kind: "advance" } } });
  assert.deepEqual(replaced, { kind: "write", orders: [{ unit: 0, order: { kind: "hold" } }, { unit: 1, order: { kind: "advance" } }] });
  const appended = applyDraft(orders, { kind: "draft", at: "/orders", key: "unit", value: { unit: 7, order: null } });
  assert.equal(/** @type {any} */ (appended).orders.length, 3);
  assert.equal(orders.orders[1].order, null, "the original draft is not changed");
});

test("a field is set, a missing field of an object added, a pointer into nothing ignored", () => {
  assert.deepEqual(applyDraft({ plan: { moves: [] } }, { kind: "draft", at: "/plan/signal", value: "advance" }), { plan: { moves: [], signal: "advance" } });
  assert.deepEqual(applyDraft({ a: 1 }, { kind: "draft", at: "/b/c", value: 2 }), { a: 1 });
  assert.deepEqual(applyDraft({ a: 1 }, { kind: "draft", at: "", value: [3] }), [3]);
});

test("a null value with a key removes nothing it cannot name", () => {
  assert.deepEqual(applyDraft(orders, { kind: "draft", at: "/orders", key: "unit", value: null }), orders);
});

test("a value without the key field leaves the draft unchanged", () => {
  assert.deepEqual(applyDraft(orders, { kind: "draft", at: "/orders", key: "unit", value: { order: { kind: "advance" } } }), orders);
  assert.deepEqual(applyDraft(orders, { kind: "draft", at: "/orders", key: "unit", value: 3 }), orders);
  assert.deepEqual(applyDraft(orders, { kind: "draft", at: "/orders", key: "unit", value: [{ unit: 0 }] }), orders);
});

test("pointers unescape ~1 and ~0; drafts read as words", () => {
  assert.deepEqual(pointerKeys("/a~1b/c~0d"), ["a/b", "c~d"]);
  assert.equal(describe({ unit: 3, order: { kind: "charge", target: 5 } }), "unit: 3, order: (kind: charge, target: 5)");
  assert.equal(describe([]), "none");
});
