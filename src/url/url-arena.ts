/**
 * URLs packed end to end in one latin1 buffer, by the order they were added: 4 bytes of end offset
 * and one byte a character, where a string costs its header and its hash slot besides. For what the
 * crawl keeps of every page to the end (its content digest, its SimHash); request URLs are ASCII
 * once normalized.
 *
 * @example
 * const urls = new UrlArena();
 * urls.add('http://a.test/') //=> 0
 * urls.get(0)                //=> 'http://a.test/'
 */
export class UrlArena {
  private ends = new Uint32Array(1024);
  private bytes = Buffer.allocUnsafeSlow(65536);
  private used = 0;
  size = 0;

  /** Appends a URL; its id, the number of URLs added before it. */
  add(url: string): number {
    const id = this.size++;
    if (id === this.ends.length) {
      const ends = new Uint32Array(2 * this.ends.length);
      ends.set(this.ends);
      this.ends = ends;
    }
    const need = this.used + url.length;
    if (need > this.bytes.length) {
      const wider = Buffer.allocUnsafeSlow(Math.max(need, 2 * this.bytes.length));
      this.bytes.copy(wider, 0, 0, this.used);
      this.bytes = wider;
    }
    this.used += this.bytes.write(url, this.used, 'latin1');
    this.ends[id] = this.used;
    return id;
  }

  get(id: number): string {
    return this.bytes.toString('latin1', id === 0 ? 0 : this.ends[id - 1], this.ends[id]);
  }
}
