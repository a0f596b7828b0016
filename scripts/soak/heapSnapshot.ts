import type { CDPSession } from 'playwright-core';

/** A heap snapshot in V8's `.heapsnapshot` format: flat arrays of nodes and edges, described by `meta`. */
export interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * The node types a page's own objects have. Left out: `code` (bytecode, compiled code, feedback), `hidden` and
 * `synthetic` (V8's internals and the snapshot's roots) and `object shape` (maps). V8 grows those for a long time
 * as it compiles and re-optimises the paths that faults take, so they cannot tell a leak from a warm-up.
 */
const OWN = new Set([
  'object',
  'closure',
  'array',
  'string',
  'concatenated string',
  'sliced string',
  'number',
  'regexp',
  'native',
  'symbol',
  'bigint',
]);

/**
 * What DevTools keeps for the soak's own `Network.enable` (a record of each request, about two per request): native
 * nodes the page does not hold, which grow for as long as the soak watches the network.
 */
const DEVTOOLS = /^blink::NetworkResourcesData/;

/**
 * The self size of every object of the page's own (see {@link OWN}) in `snap`, in bytes, but what DevTools keeps
 * for the soak ({@link DEVTOOLS}).
 */
export function jsObjectBytes(snap: Snapshot): number {
  const {
    node_fields: fields,
    node_types: [types],
  } = snap.snapshot.meta;
  const width = fields.length;
  const type = fields.indexOf('type');
  const name = fields.indexOf('name');
  const size = fields.indexOf('self_size');
  const own = types.map((each) => OWN.has(each));
  const devtools = snap.strings.map((each) => DEVTOOLS.test(each));
  let bytes = 0;
  for (let at = 0; at < snap.nodes.length; at += width)
    if (own[snap.nodes[at + type]!] && !devtools[snap.nodes[at + name]!]) bytes += snap.nodes[at + size]!;
  return bytes;
}

/** Takes a heap snapshot of the page behind `cdp` (V8 collects garbage first) and returns it parsed. */
export async function takeHeapSnapshot(cdp: CDPSession): Promise<{ snapshot: Snapshot; text: string }> {
  const chunks: string[] = [];
  const onChunk = ({ chunk }: { chunk: string }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  const text = chunks.join('');
  return { snapshot: JSON.parse(text) as Snapshot, text };
}
