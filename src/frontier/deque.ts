/**
 * A growable ring buffer used as a host's back queue: FIFO for breadth-first, LIFO for depth-first.
 * Arrays with `shift()` are O(n) per take once a queue holds thousands of URLs; this is O(1).
 *
 * @example
 * const d = new Deque<string>(); d.pushBack('a'); d.pushBack('b');
 * d.popFront() //=> 'a'
 */
export class Deque<T> {
  private buf: (T | undefined)[];
  private head = 0;
  private length = 0;

  constructor(capacity = 4) {
    this.buf = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.length;
  }

  pushBack(item: T): void {
    if (this.length === this.buf.length) this.grow();
    this.buf[(this.head + this.length) & (this.buf.length - 1)] = item;
    this.length++;
  }

  pushFront(item: T): void {
    if (this.length === this.buf.length) this.grow();
    this.head = (this.head - 1) & (this.buf.length - 1);
    this.buf[this.head] = item;
    this.length++;
  }

  peekFront(): T | undefined {
    return this.length === 0 ? undefined : this.buf[this.head];
  }

  peekBack(): T | undefined {
    return this.length === 0 ? undefined : this.buf[(this.head + this.length - 1) & (this.buf.length - 1)];
  }

  popFront(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.length--;
    return item;
  }

  popBack(): T | undefined {
    if (this.length === 0) return undefined;
    const i = (this.head + this.length - 1) & (this.buf.length - 1);
    const item = this.buf[i];
    this.buf[i] = undefined;
    this.length--;
    return item;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.length; i++) yield this.buf[(this.head + i) & (this.buf.length - 1)] as T;
  }

  private grow(): void {
    const next = new Array<T | undefined>(this.buf.length * 2);
    for (let i = 0; i < this.length; i++) next[i] = this.buf[(this.head + i) & (this.buf.length - 1)];
    this.buf = next;
    this.head = 0;
  }
}
