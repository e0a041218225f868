import { describe, expect, it } from 'vitest';
import { brandThemeCss } from '../../../src/web/app/brand-theme-css';
import { brand } from '../brand-fixtures';

const headerBorder = (id: string) => /--header-border: (#[0-9a-f]{6});/i.exec(brandThemeCss([brand(id)]))?.[1];

describe('brandThemeCss: the line under the header', () => {
  it('draws a grey line under a header as light as the page (teka: white header)', () => {
    expect(brand('teka').theme.headerBackground).toBe('#ffffff');
    expect(headerBorder('teka')).toBe('#d0d0d0');
  });

  it('draws none (the header colour itself) under a coloured header (kuppersbusch: dark header)', () => {
    expect(headerBorder('kuppersbusch')).toBe(brand('kuppersbusch').theme.headerBackground);
  });
});
