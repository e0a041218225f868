import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { taggedText, untagged } from '../../../src/web/i18n/tagged-text';
import fr from '../../fixtures/schemas/spec/i18n/fr.json';
import nl from '../../fixtures/schemas/spec/i18n/nl.json';

const link = (inner: string) => <a href="https://example.com/privacy">{inner}</a>;

describe('taggedText', () => {
  it.each([
    ['nl', nl.fields.isAkkoord, 'privacybeleid'],
    ['fr', fr.fields.isAkkoord, 'politique de confidentialité'],
  ])('wraps the tagged part of the %s terms label in the link', (_locale, text, inner) => {
    const html = renderToStaticMarkup(<p>{taggedText(text, 'privacy', link)}</p>);
    expect(html).toContain(`<a href="https://example.com/privacy">${inner}</a>`);
    expect(html).not.toContain('&lt;privacy');
    expect(html.replace(/<[^>]+>/g, '')).toBe(untagged(text).replace(/'/g, '&#x27;'));
  });

  it('leaves a text without the tag as it is', () => {
    expect(renderToStaticMarkup(<p>{taggedText('Geen link', 'privacy', link)}</p>)).toBe('<p>Geen link</p>');
  });
});
