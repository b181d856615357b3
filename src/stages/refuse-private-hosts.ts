import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ResolveEntry } from '../model/config.js';
import { literalAddress, type AddressGuard } from '../fetch/address-guard.js';
import { hostKey, urlParts } from '../url/url-parts.js';
import { dropStep, type Admissible } from './drop-when.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';
import { type DropReport } from '../model/filter-reason.js';

/**
 * Drops links whose host is a literal address the SSRF guard refuses (`http://10.0.0.5/`,
 * `http://[::1]/`, and `http://2130706433/` or `http://0x7f.1/`, which the URL parser has already
 * made `127.0.0.1`), as `private-address`, before they take a place in the frontier. Names are
 * judged at connect time, on the address DNS gives; this stage only saves those links a slot.
 * A `resolve` entry for the address and port keeps its link (the user pointed it there).
 *
 * @example
 * of(admissible('http://169.254.169.254/latest/meta-data/')).pipe(refusePrivateHosts(guard, [], report)) //=> (dropped: private-address)
 */
export function refusePrivateHosts(guard: AddressGuard, resolve: readonly ResolveEntry[], report: DropReport): MonoTypeOperatorFunction<Admissible> {
  return stepOperator(refusePrivateHostsStep(guard, resolve, report));
}

/** {@link refusePrivateHosts} as an {@link AdmissionStep}. */
export function refusePrivateHostsStep(guard: AddressGuard, resolve: readonly ResolveEntry[], report: DropReport): AdmissionStep<Admissible, Admissible> {
  const pinned = new Set(resolve.map((r) => `${r.host}:${r.port}`));
  return dropStep<Admissible>(report, (a) => {
    // An address starts with a digit or `[`: links to names that start with a letter stop here, unparsed.
    const first = hostKey(a.url).charCodeAt(0);
    if (first !== 0x5b && !(first >= 0x30 && first <= 0x39)) return undefined;
    const { hostname } = urlParts(a.url);
    const address = literalAddress(hostname);
    if (address === undefined || pinned.has(`${address}:${portOf(a.url, hostname)}`)) return undefined;
    return guard.refusal(hostname, address) ? 'private-address' : undefined;
  });
}

function portOf(url: string, hostname: string): number {
  const port = hostKey(url).slice(hostname.length + 1);
  return port ? Number(port) : url.startsWith('https:') ? 443 : 80;
}
