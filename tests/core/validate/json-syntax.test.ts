import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblems } from '../../../src/core/validate/json-syntax';

const BRAND = '{\n  "id": "acme",\n  "countries": ["be", "nl"],\n  "header": { "languageSwitch": false }\n}\n';

describe('jsonSyntaxProblems: what keeps a brand file from reading as JSON', () => {
  it('finds nothing wrong in valid JSON, curly apostrophes inside texts included', () => {
    expect(jsonSyntaxProblems(BRAND)).toEqual([]);
    expect(jsonSyntaxProblems('{ "fr": "Réparez l’appareil « vite »" }')).toEqual([]);
  });

  it('names a byte-order mark and how to save without it', () => {
    expect(jsonSyntaxProblems('\uFEFF' + BRAND)).toEqual([
      { line: 1, column: 1, message: expect.stringMatching(/^the file starts with an invisible byte-order mark \(BOM\).*Save the file as "UTF-8" without BOM/) },
    ]);
  });

  it('names curly quotes where straight ones belong, each with line and column', () => {
    expect(jsonSyntaxProblems(BRAND.replace('"id": "acme"', '“id”: “acme”'))).toEqual([
      { line: 2, column: 3, message: expect.stringMatching(/^“id” uses curly quotes.*straight double quotes \("\)/) },
      { line: 2, column: 9, message: expect.stringMatching(/^“acme” uses curly quotes/) },
    ]);
  });

  it('names // and /* */ comments, and where to put notes instead', () => {
    expect(jsonSyntaxProblems(BRAND.replace('  "id"', '  // our new brand\n  "id"'))).toEqual([
      { line: 2, column: 3, message: expect.stringMatching(/^JSON files cannot contain comments \(\/\/\)\. Remove the comment; put notes for editors in the "notes" field/) },
    ]);
    expect(jsonSyntaxProblems('{ /* x */ "a": 1 }')[0]).toMatchObject({ line: 1, column: 3, message: expect.stringContaining('(/* */)') });
  });

  it('names a comma after the last item of a list and of a group, at the comma', () => {
    expect(jsonSyntaxProblems(BRAND.replace('["be", "nl"]', '["be", "nl",]'))).toEqual([
      { line: 3, column: 27, message: 'there is a comma after the last item of a list. Remove this comma: JSON allows no comma before ].' },
    ]);
    expect(jsonSyntaxProblems(BRAND.replace('false }', 'false, }'))).toEqual([
      { line: 4, column: 38, message: 'there is a comma after the last item of a group. Remove this comma: JSON allows no comma before }.' },
    ]);
  });

  it('says what is missing for other mistakes', () => {
    expect(jsonSyntaxProblems(BRAND.replace('"acme",', '"acme"'))[0]).toMatchObject({ line: 3, column: 3, message: expect.stringMatching(/^a comma is missing here/) });
    expect(jsonSyntaxProblems("{ 'id': 'acme' }")[0].message).toMatch(/single quotes/);
    expect(jsonSyntaxProblems('{ "id": "acme }')[0].message).toMatch(/a text is not closed/);
    expect(jsonSyntaxProblems('')[0].message).toMatch(/a value was expected/);
  });

  it('reports every text JSON.parse refuses, and none it accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string(), fc.json().map((j) => j.slice(0, -1))), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const problems = jsonSyntaxProblems(text);
        expect(problems.length === 0).toBe(parses);
        for (const p of problems) expect(p.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });
});
