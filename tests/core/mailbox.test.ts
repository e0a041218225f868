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
    ['A.nna.Jansen+shop@GMail.com', 'annajansen@gmail.com'],
    ['annajansen@googlemail.com', 'annajansen@gmail.com'],
    ['a.n.n.a@googlemail.com.', 'anna@gmail.com'],
    ['a.nna@ｇｍａｉｌ.com', 'anna@gmail.com'],
    ['a.nna@gmail.com.example', 'a.nna@gmail.com.example'],
    ['a.nna@mail.gmail.com', 'a.nna@mail.gmail.com'],
    ['a.nna@gmail.co', 'a.nna@gmail.co'],
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
      fc.property(name, domain.filter((d) => !isGmail(d)), name, domain.filter((d) => !isGmail(d)), (n1, d1, n2, d2) => {
        const same = n1.toLowerCase().normalize('NFC') === n2.toLowerCase().normalize('NFC') && domainToASCII(d1) === domainToASCII(d2);
        expect(mailboxOf(`${n1}@${d1}`) === mailboxOf(`${n2}@${d2}`)).toBe(same);
      }),
      { numRuns: 500 },
    );
  });
});

/** Gmail delivers every dotted spelling of a name, at gmail.com and googlemail.com, to one inbox. */
const isGmail = (d: string) => ['gmail.com', 'googlemail.com'].includes(domainToASCII(d));
const gmailName = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 12 });
/** A name as someone may write it to reach the same inbox: dots between any letters, any case, any +tag, either domain. */
const gmailSpelling = (n: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: n.length, maxLength: n.length }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
      fc.option(tag, { nil: undefined }),
      fc.constantFrom('gmail.com', 'googlemail.com', 'GMail.com', 'googlemail.com.'),
    )
    .map(([dots, upper, t, d]) => `${recase([...n].map((c, i) => (i > 0 && dots[i] ? `.${c}` : c)).join(''), upper)}${t === undefined ? '' : `+${t}`}@${d}`);

describe('mailboxOf, Gmail', () => {
  it('maps every alias of one inbox to one key', () => {
    fc.assert(
      fc.property(
        gmailName.chain((n) => fc.tuple(fc.constant(n), gmailSpelling(n), gmailSpelling(n))),
        ([n, a, b]) => {
          expect(mailboxOf(a)).toBe(`${n}@gmail.com`);
          expect(mailboxOf(b)).toBe(mailboxOf(a));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps different inboxes apart: other names, and other domains that merely look alike', () => {
    fc.assert(
      fc.property(
        gmailName.chain((n) => fc.tuple(fc.constant(n), gmailSpelling(n))),
        gmailName.chain((n) => fc.tuple(fc.constant(n), gmailSpelling(n))),
        ([n1, a1], [n2, a2]) => {
          expect(mailboxOf(a1) === mailboxOf(a2)).toBe(n1 === n2);
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(name, domain.filter((d) => !isGmail(d)), (n, d) => {
        expect(mailboxOf(`${n}@${d}`)).not.toBe(mailboxOf(`${n}@gmail.com`));
      }),
    );
  });
});
