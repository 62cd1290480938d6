/**
 * Which webhook addresses the emulator refuses by default: loopback,
 * link-local (cloud metadata services live there), unspecified and known
 * metadata addresses. A webhook is an address a client chooses, so an
 * emulator reachable by others must not become a way into the machine or its
 * cloud account. Checked on the URL at queue time and again on every address
 * a name resolves to, at the moment of connecting (no gap for DNS rebinding).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

const REFUSED: Array<[string, number, "ipv4" | "ipv6", string]> = [
  ["127.0.0.0", 8, "ipv4", "loopback"],
  ["0.0.0.0", 8, "ipv4", "unspecified"],
  ["169.254.0.0", 16, "ipv4", "link-local"],
  ["::1", 128, "ipv6", "loopback"],
  ["::", 128, "ipv6", "unspecified"],
  ["fe80::", 10, "ipv6", "link-local"],
  // Metadata services outside link-local: AWS over IPv6, Alibaba Cloud.
  ["fd00:ec2::254", 128, "ipv6", "metadata"],
  ["100.100.100.200", 32, "ipv4", "metadata"],
];

const LISTS = new Map<string, BlockList>();
for (const [network, prefix, family, kind] of REFUSED) {
  const list = LISTS.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  LISTS.set(kind, list);
}

/** Names that mean this machine or a metadata service whatever DNS says. */
const LOCAL_NAMES = /^(?:localhost|.*\.localhost|metadata\.google\.internal|metadata)\.?$/i;

/** "loopback", "link-local", "unspecified" or "metadata" for a refused address (IPv4-mapped IPv6 included), else undefined. */
export function refusedAddressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  for (const [kind, list] of LISTS) if (list.check(address, family === 4 ? "ipv4" : "ipv6")) return kind;
  return undefined;
}

/** Why a URL host (as WHATWG URL gives it, IPv6 in brackets) is refused, or undefined when only DNS can tell. */
export function refusedHostKind(hostname: string): string | undefined {
  if (LOCAL_NAMES.test(hostname)) return hostname.toLowerCase().startsWith("metadata") ? "metadata" : "loopback";
  return refusedAddressKind(hostname.replace(/^\[|\]$/g, ""));
}

/** The error code of a connection refused by the address check. */
export const REFUSED_ADDRESS_CODE = "EWEBHOOKREFUSED";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** A `lookup` for net.connect that fails when any address of the name is refused. */
export function refusingLookup(resolve: Lookup = dnsLookup as unknown as Lookup): Lookup {
  return (hostname, options, callback) => {
    resolve(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = typeof address === "string" ? [address] : address.map((a) => a.address);
      const refused = addresses.map((a) => [a, refusedAddressKind(a)] as const).find(([, kind]) => kind !== undefined);
      if (refused) {
        const problem = Object.assign(new Error(`${hostname} resolves to ${refused[0]}, a ${refused[1]} address`), {
          code: REFUSED_ADDRESS_CODE,
        });
        return callback(problem, address, family);
      }
      callback(null, address, family);
    });
  };
}
