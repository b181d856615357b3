import type { Readable } from 'node:stream';
import { readIndex } from '../output/read-index.js';
import { type LinkGraph, LinkGraphBuilder } from './link-graph.js';

/**
 * The link graph of an index file in any of the four formats (SPEC §6): a node for every URL
 * that appears as a record or as a link target, an edge for every distinct link between two
 * different pages. The file is streamed; only the graph is held. A csv index carries no links, so
 * its graph has nodes and no edges. Rejects with the reader's error (a missing file, an
 * `IndexFormatError`).
 *
 * @example
 * const graph = await readLinkGraph('testbedcsdics/index.txt');
 * graph.urls.length //=> 1234
 * @see readIndex, LinkGraphBuilder
 */
export async function readLinkGraph(source: string | Readable): Promise<LinkGraph> {
  const builder = new LinkGraphBuilder();
  for await (const page of readIndex(source)) builder.addPage(page.url, page.links);
  return builder.build();
}
