/**
 * A URL fit for a log line, an error, stats.json or the report: the password of its userinfo (a
 * proxy's, a Redis frontier's, a seed's) replaced by `***`; a URL without one comes back as written.
 *
 * @example
 * withoutPassword('http://me:secret@proxy.test:3128') //=> 'http://me:***@proxy.test:3128/'
 * withoutPassword('redis://:secret@127.0.0.1:6379/0') //=> 'redis://:***@127.0.0.1:6379/0'
 */
export function withoutPassword<T extends string | undefined>(url: T): T {
  if (url === undefined || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password === '') return url;
  parsed.password = '***';
  return parsed.href as T;
}

/**
 * Every password of a URL in `text` (a message that quotes one) replaced by `***`.
 *
 * @example
 * passwordsHidden('cannot reach redis://:secret@h:1/0: refused') //=> 'cannot reach redis://:***@h:1/0: refused'
 */
export function passwordsHidden(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]*@/gi, '$1***@');
}
