import { expect, it } from "vitest";
import { CountingGate } from "#app/utils/counting-gate.server.ts";

const settled = () => new Promise((resume) => setImmediate(resume));

it("lets shares in while they fit under the limit, the rest in arrival order as shares come back", async () => {
  const gate = new CountingGate();
  const went: string[] = [];
  const take = (name: string, share: number) => void gate.take(share, 60).then(() => went.push(name));
  take("a", 25);
  take("b", 25);
  take("c", 25);
  take("d", 5);
  await settled();
  // d would fit, but c came first: none overtakes.
  expect(went).toEqual(["a", "b"]);
  expect(gate.taken).toBe(50);
  gate.give(25);
  await settled();
  expect(went).toEqual(["a", "b", "c", "d"]);
  expect(gate.taken).toBe(55);
});

it("lets a share larger than the limit in alone, so it never waits for good", async () => {
  const gate = new CountingGate();
  await gate.take(100, 60);
  let second = false;
  void gate.take(1, 60).then(() => (second = true));
  await settled();
  expect(second).toBe(false);
  gate.give(100);
  await settled();
  expect(second).toBe(true);
  expect(gate.taken).toBe(1);
});
