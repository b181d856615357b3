// undici's own files, imported one by one: its index also evaluates fetch, WebSocket, cookies, the
// cache, the mocks and the interceptors, none of which the crawler uses. The package has no
// "exports" map, so these paths resolve; they have no types of their own, hence these, in terms of
// undici's public ones (imports in a declaration file load nothing).

declare module 'undici/lib/core/connect.js' {
  import { buildConnector } from 'undici';
  export default buildConnector;
}

declare module 'undici/lib/core/util.js' {
  import type { util } from 'undici';
  export const parseHeaders: typeof util.parseHeaders;
  /** `new URL(url)`, refusing any protocol but http: and https: with an UND_ERR_INVALID_ARG error. */
  export function parseURL(url: string): URL;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
  // The base class of every dispatcher: dispatch(), close(), destroy() and compose().
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}

declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}

declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  const connect: Dispatcher['connect'];
  export default connect;
}

declare module 'undici/lib/dispatcher/client.js' {
  // As for every dispatcher loaded from here: dispatch(), close(), destroy() and stats, whatever the type says.
  import { Client } from 'undici';
  export default Client;
}
