/** An element that remembers where it sits in an {@link IndexedHeap}, so its key can change in O(log n). */
export interface HeapSlot {
  heapIndex: number;
}

/**
 * A binary min-heap of objects whose position is tracked on the object itself.
 * The frontier keeps hosts in two of these (waiting by next-allowed time, ready by queue order),
 * and a host's key changes whenever its queue head changes.
 *
 * @example
 * const h = new IndexedHeap<{ k: number; heapIndex: number }>((a, b) => a.k - b.k);
 * h.push({ k: 3, heapIndex: -1 }); h.push({ k: 1, heapIndex: -1 });
 * h.pop()?.k //=> 1
 */
export class IndexedHeap<T extends HeapSlot> {
  private readonly items: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  has(item: T): boolean {
    return item.heapIndex >= 0 && this.items[item.heapIndex] === item;
  }

  push(item: T): void {
    item.heapIndex = this.items.length;
    this.items.push(item);
    this.up(item.heapIndex);
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top !== undefined) this.removeAt(0);
    return top;
  }

  remove(item: T): void {
    if (this.has(item)) this.removeAt(item.heapIndex);
  }

  /** Restores heap order after `item`'s key changed in either direction. */
  update(item: T): void {
    if (!this.has(item)) return;
    this.up(item.heapIndex);
    this.down(item.heapIndex);
  }

  private removeAt(i: number): void {
    const items = this.items;
    const gone = items[i]!;
    const last = items.pop()!;
    gone.heapIndex = -1;
    if (i < items.length) {
      items[i] = last;
      last.heapIndex = i;
      this.up(i);
      this.down(last.heapIndex);
    }
  }

  private up(i: number): void {
    const items = this.items;
    const item = items[i]!;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = items[parentIndex]!;
      if (this.compare(item, parent) >= 0) break;
      items[i] = parent;
      parent.heapIndex = i;
      i = parentIndex;
    }
    items[i] = item;
    item.heapIndex = i;
  }

  private down(i: number): void {
    const items = this.items;
    const n = items.length;
    const item = items[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.compare(items[r]!, items[l]!) < 0 ? r : l;
      const child = items[c]!;
      if (this.compare(child, item) >= 0) break;
      items[i] = child;
      child.heapIndex = i;
      i = c;
    }
    items[i] = item;
    item.heapIndex = i;
  }
}
