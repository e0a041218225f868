import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { anyText } from '../support/any-text';
import { describe, expect, it } from 'vitest';
import { mailboxOf } from '../../src/core/mailbox';

describe('mailboxOf: the mailbox an address reaches', () => {
  it.each([
    ['Anna@Example.COM', 'anna@example.com'],
    ['anna+1@example.com', 'anna@example.com'],
    ['ANNA+Shop+x@example.com', 'anna@example.com'],
    ['  anna@example.com \n', 'anna@example.com'],
    ['jan@müller.be', 'jan@xn--mller-kva.be'],
    ['jan@MÜLLER.be', 'jan@xn--mller-kva.be'],
    ['jan@xn--mller-kva.be', 'jan@xn--mller-kva.be'],
    ['JÖRAN+tag@Müller.BE', 'jöran@xn--mller-kva.be'],
    ['jo\u0308ran@example.com', 'jöran@example.com'],
    ['anna@example.com.', 'anna@example.com'],
    ['A@ .', 'a@'],
    ['+tag@example.com', '+tag@example.com'],
    ['a.b@example.com', 'a.b@example.com'],
  ])('%j → %j', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });

  it('keeps what is not an address as it is, trimmed and lower-cased, and never throws', () => {
    expect(mailboxOf('no address')).toBe('no address');
    expect(mailboxOf('a@b/c?d#e')).toBe('a@b/c?d#e');
    fc.assert(fc.property(anyText({ maxLength: 40 }), (text) => typeof mailboxOf(text) === 'string'));
  });
});

/** Name parts and domains as the form accepts them (idn-email), in any script and case. */
const nameChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789._-', ...'äöüéçñøßжщ王');
const name = fc.string({ unit: nameChar, minLength: 1, maxLength: 12 }).filter((n) => !/^[.]|[.]$|\.\./.test(n));
const labelChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789', ...'äöüéçñøжщ王');
const label = fc.string({ unit: labelChar, minLength: 1, maxLength: 10 });
const domain = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('be', 'nl', 'com', 'de', 'рф')).map(([labels, tld]) => [...labels, tld].join('.'));
const tag = fc.string({ unit: nameChar, maxLength: 8 });
const address = fc.tuple(name, domain).map(([n, d]) => `${n}@${d}`);

/** The same letters in another case, as people type them (İ and ß aside: their case pairs are not one letter each). */
const recase = (text: string, upper: boolean[]) =>
  [...text].map((c, i) => (upper[i % Math.max(upper.length, 1)] && c.toUpperCase().length === 1 ? c.toUpperCase() : c)).join('');

describe('mailboxOf, fuzzed', () => {
  it('is idempotent', () => {
    const tricky = fc.constantFrom('A', 'ä', '+', '@', '.', ' ', 'İ', 'ß', 'x', '-', '０', '%');
    const anything = fc.oneof(address, anyText({ maxLength: 30 }), fc.string({ unit: tricky, maxLength: 12 }));
    fc.assert(fc.property(anything, (a) => mailboxOf(mailboxOf(a)) === mailboxOf(a)), { numRuns: 2000 });
  });

  it('maps case, +tag and IDN spellings of one address to one key', () => {
    fc.assert(
      fc.property(name, domain, tag, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.boolean(), (n, d, t, upper, punycode) => {
        const written = `${recase(n, upper)}+${t}@${punycode ? domainToASCII(d) : recase(d, upper)}`;
        expect(mailboxOf(written)).toBe(mailboxOf(`${n}@${d}`));
      }),
      { numRuns: 500 },
    );
  });

  it('puts the domain in its ASCII (IDNA) form', () => {
    fc.assert(
      fc.property(name, domain, (n, d) => {
        const key = mailboxOf(`${n}@${d}`);
        expect(key.slice(key.lastIndexOf('@') + 1)).toBe(domainToASCII(d));
      }),
    );
  });

  it('keeps distinct mailboxes distinct', () => {
    fc.assert(
      fc.property(name, domain, name, domain, (n1, d1, n2, d2) => {
        const same = n1.toLowerCase().normalize('NFC') === n2.toLowerCase().normalize('NFC') && domainToASCII(d1) === domainToASCII(d2);
        expect(mailboxOf(`${n1}@${d1}`) === mailboxOf(`${n2}@${d2}`)).toBe(same);
      }),
      { numRuns: 500 },
    );
  });
});
