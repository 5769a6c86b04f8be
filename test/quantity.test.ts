/** src/quantity.ts: Kubernetes quantities as instance types use them, against what the API server does. */
import {
  canonicalQuantity,
  formatBinary,
  formatQuantity,
  isQuantity,
  parseMilli,
  parseQ,
  parseQuantity,
  qString,
  quantityCeil,
  quantityFormat,
} from '../src/quantity';

describe('quantities', () => {
  it('parses whole numbers of bytes, and nothing else', () => {
    expect(parseQuantity('4Gi')).toBe(4 * 2 ** 30);
    expect(parseQuantity('1.5Gi')).toBe(1.5 * 2 ** 30);
    expect(parseQuantity('512M')).toBe(512e6);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity(' 2Ki ')).toBe(2048);
    expect(parseQuantity(1024)).toBe(1024);
    expect(parseQuantity('500m')).toBeUndefined(); // half a byte
    expect(parseQuantity('-1Gi')).toBeUndefined();
    expect(parseQuantity('4GB')).toBeUndefined();
    expect(parseQuantity('lots')).toBeUndefined();
    expect(parseQuantity(1.5)).toBeUndefined();
  });
  it('knows the quantity grammar', () => {
    for (const q of ['1', '1.5', '.5', '1Ki', '2e6', '3E-2', '+1m', '100n']) expect([q, isQuantity(q)]).toEqual([q, true]);
    for (const q of ['', 'Gi', '1 Gi', '1gi', '1GB', '1e', '--1']) expect([q, isQuantity(q)]).toEqual([q, false]);
  });
  it('prints bytes with the largest power of 1024 that divides them', () => {
    expect(formatBinary(4 * 2 ** 30)).toBe('4Gi');
    expect(formatBinary(1536 * 2 ** 20)).toBe('1536Mi');
    expect(formatBinary(1000)).toBe('1000');
    expect(formatBinary(2 ** 60)).toBe('1Ei');
  });
  it('prints as Quantity.String() does in each format', () => {
    expect(formatQuantity(2 * 2 ** 30, 'BinarySI')).toBe('2Gi');
    expect(formatQuantity(1000, 'BinarySI')).toBe('1k'); // below 1024 BinarySI prints as DecimalSI
    expect(formatQuantity(1932735232, 'BinarySI')).toBe('1932735232');
    expect(formatQuantity(2e9, 'DecimalSI')).toBe('2G');
    expect(formatQuantity(2e9, 'DecimalExponent')).toBe('2e9');
    expect(formatQuantity(0, 'BinarySI')).toBe('0');
  });
  it('canonicalizes as the API server stores quantities', () => {
    expect(canonicalQuantity('4096Mi')).toBe('4Gi');
    expect(canonicalQuantity('1000M')).toBe('1G');
    expect(canonicalQuantity('1.5Gi')).toBe('1536Mi');
    expect(canonicalQuantity(2048)).toBe('2048');
    expect(canonicalQuantity('x')).toBeUndefined();
  });
  it('tells the format from the suffix', () => {
    expect([quantityFormat('4Gi'), quantityFormat('4G'), quantityFormat('4e9'), quantityFormat(4)]).toEqual([
      'BinarySI',
      'DecimalSI',
      'DecimalExponent',
      'DecimalSI',
    ]);
  });
  it('rounds CPU quantities up as Quantity.Value() does', () => {
    expect([quantityCeil('500m'), quantityCeil('2'), quantityCeil('2.1'), quantityCeil(3), quantityCeil('x')]).toEqual([1, 2, 3, 3, undefined]);
  });
});

describe('one model', () => {
  it('refuses what ParseQuantity refuses, where the grammar alone would accept it', () => {
    for (const t of ['1e', '1e1.5', '1E-', 'e3']) expect([t, isQuantity(t), parseQuantity(t)]).toEqual([t, false, undefined]);
  });
  it('answers huge and tiny exponents at once, as larger or smaller than anything a cluster holds', () => {
    expect(parseQ('1e999999999')!.nano > parseQ('8Ei')!.nano).toBe(true);
    expect(parseQ('1e-999999999')!.nano).toBe(1n); // rounded up to one nano-unit
    expect(parseQuantity('1e999999999')).toBeUndefined(); // not a safe number of bytes
  });
  it('gives the number views the exact values', () => {
    expect(parseMilli('650m')).toBe(650);
    expect(parseMilli('2')).toBe(2000);
    expect(parseMilli('1n')).toBe(1); // MilliValue rounds up
    expect(parseQuantity('0.1G')).toBe(100_000_000);
    expect(canonicalQuantity('1.5Gi')).toBe(qString(parseQ('1.5Gi')!));
  });
});
