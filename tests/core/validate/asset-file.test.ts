import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { assetFileProblem } from '../../../src/core/validate/asset-file';

/** The file's bytes as the checks get them, from disk (the CLI) or from the studio's upload. */
const problem = (name: string, content: string | Uint8Array, key: 'logo' | 'favicon' = 'favicon') =>
  assetFileProblem(typeof content === 'string' ? new TextEncoder().encode(content) : content, `brands/assets/${name}`, key);
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#1d4f73' } }).png().toBuffer();

describe('logo and favicon files', () => {
  it('accepts a small SVG with a viewBox, and a PNG of a sensible size', async () => {
    expect(problem('ok.svg', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32"/></svg>')).toBeUndefined();
    expect(problem('ok.png', await png(64, 64))).toBeUndefined();
  });

  it('refuses an empty file, naming it and the fix', () => {
    expect(problem('empty.svg', '')).toBe('the favicon file brands/assets/empty.svg is empty (0 bytes). Save the picture again from your design tool, or copy it once more.');
  });

  it('refuses SVG that is not well-formed, with its line', () => {
    expect(problem('broken.svg', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">\n<rect></svg>', 'logo')).toMatch(
      /^the logo file brands\/assets\/broken\.svg is not a well-formed SVG picture \(line 2: .*\)\. Export it again as SVG/,
    );
  });

  it('refuses a file that is not SVG at all, and an SVG without a size', () => {
    expect(problem('html.svg', '<html><body>logo</body></html>')).toMatch(/does not contain an <svg> picture/);
    expect(problem('nosize.svg', '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>')).toMatch(/needs a viewBox \(or width and height\)/);
  });

  it('refuses a .png that is not a PNG, or whose size is absurd', async () => {
    expect(problem('fake.png', '<svg/>')).toMatch(/is called \.png but is not a PNG picture/);
    expect(problem('tiny.png', await png(8, 8))).toMatch(/is 8 × 8 pixels; use 16 to 2048 pixels per side/);
  });

  it('refuses a picture too heavy for a page header', () => {
    const heavy = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><!-- ${'x'.repeat(250 * 1024)} --></svg>`;
    expect(problem('heavy.svg', heavy, 'logo')).toMatch(/^the logo file brands\/assets\/heavy\.svg is 251 kB; at most 200 kB is allowed/);
  });
});
