/**
 * What KubeVirt's network admitter asks of Go's standard library and apimachinery, with their
 * semantics: `net.ParseMAC` (the number of octets of a MAC address), `net.ParseIP(s).To4()`, and
 * `validation.IsValidPortName`.
 */

/**
 * net.ParseMAC: the number of octets of a MAC address in one of Go's three forms (colons, hyphens,
 * dots), undefined when it does not parse.
 */
export function macOctets(s: string): number | undefined {
  const hex2 = (at: number): boolean => /^[0-9a-fA-F]{2}$/.test(s.slice(at, at + 2));
  if (s.length < 14) return undefined;
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return undefined;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return undefined;
    for (let i = 0, x = 0; i < n; i++, x += 3) if (!hex2(x) || (i < n - 1 && s[x + 2] !== s[2])) return undefined;
    return n;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return undefined;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return undefined;
    for (let x = 0; x < s.length; x += 5) if (!hex2(x) || !hex2(x + 2) || (x + 4 < s.length && s[x + 4] !== '.')) return undefined;
    return n;
  }
  return undefined;
}

/** k8s.io/apimachinery IsValidPortName: whether it has no error. */
export function validPortName(p: string): boolean {
  return p.length <= 15 && /^[-a-z0-9]+$/.test(p) && /[a-z]/.test(p) && !p.includes('--') && !p.startsWith('-') && !p.endsWith('-');
}

/** net.ParseIP(s).To4() != nil: a dotted IPv4 address, or one mapped into IPv6. */
export function isIPv4(s: string): boolean {
  // Go's parser takes leading zeros (as decimal) in each of the four parts.
  const v4 = (t: string): boolean => {
    const parts = t.split('.');
    return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
  };
  if (v4(s)) return true;
  // An IPv6 address whose first 80 bits are zero and next 16 ones (::ffff:a.b.c.d, or in hex groups).
  const bytes = ipv6Bytes(s);
  return bytes !== undefined && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** net.ParseIP(s) != nil: an IPv4 or IPv6 address as Go reads it. */
export function isIP(s: string): boolean {
  return isIPv4(s) || ipv6Bytes(s) !== undefined;
}

/** Go's parseIPv6: 16 bytes, or undefined. */
function ipv6Bytes(s: string): number[] | undefined {
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    const parts = h.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        if (!/^[0-9]{1,3}(\.[0-9]{1,3}){3}$/.test(p) || p.split('.').some((x) => Number(x) > 255)) return undefined;
        out.push(...p.split('.').map(Number));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(parseInt(p, 16) >> 8, parseInt(p, 16) & 0xff);
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 16 ? head : undefined;
  if (head.length + tail.length > 14) return undefined;
  return [...head, ...new Array<number>(16 - head.length - tail.length).fill(0), ...tail];
}
