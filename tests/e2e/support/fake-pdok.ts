/**
 * A local stand-in for PDOK's Locatieserver free search (v3_1), answering the
 * shape recorded in shared/notes/address-lookup.md. No machine here reaches
 * PDOK; the server hands this URL to the page through ADDRESS_LOOKUP_URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface KnownAddress {
  postcode: string;
  huisnummer: number;
  straatnaam: string;
  woonplaatsnaam: string;
}

export const KNOWN_ADDRESSES: KnownAddress[] = [
  { postcode: '1118CP', huisnummer: 202, straatnaam: 'Evert van de Beekstraat', woonplaatsnaam: 'Schiphol' },
  { postcode: '3511LX', huisnummer: 1, straatnaam: 'Domplein', woonplaatsnaam: 'Utrecht' },
];

export interface FakePdok {
  url: string;
  /** Every query received, as URLSearchParams. */
  queries: URLSearchParams[];
  close(): Promise<void>;
}

const KNOWN_PARAMS = new Set(['q', 'fq', 'rows', 'fl', 'start', 'sort', 'wt', 'df', 'bq', 'lat', 'lon']);

export async function startFakePdok(): Promise<FakePdok> {
  const queries: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const cors = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'Access-Control-Allow-Headers': '*' }).end();
      return;
    }
    queries.push(url.searchParams);
    // v3_1 refuses parameters it does not know.
    const unknown = [...url.searchParams.keys()].filter((k) => !KNOWN_PARAMS.has(k));
    if (!url.pathname.endsWith('/free') || unknown.length > 0) {
      res.writeHead(400, cors).end(JSON.stringify({ error: `unknown parameter ${unknown.join(',')}` }));
      return;
    }
    const q = (url.searchParams.get('q') ?? '').toUpperCase();
    const hit = KNOWN_ADDRESSES.find((a) => {
      const nr = String(a.huisnummer);
      return (q.includes(a.postcode) && new RegExp(`\\b${nr}\\b`).test(q));
    });
    const docs = hit
      ? [
          {
            bron: 'BAG',
            type: 'adres',
            woonplaatsnaam: hit.woonplaatsnaam,
            huis_nlt: String(hit.huisnummer),
            weergavenaam: `${hit.straatnaam} ${hit.huisnummer}, ${hit.postcode} ${hit.woonplaatsnaam}`,
            id: 'adr-0a072b170a52946ef4f20cec3b2693e7',
            gemeentenaam: hit.woonplaatsnaam,
            postcode: hit.postcode,
            centroide_ll: 'POINT(4.74790756 52.30389723)',
            nummeraanduiding_id: '0394200001001951',
            huisnummer: hit.huisnummer,
            straatnaam: hit.straatnaam,
            score: 23.428492,
          },
        ]
      : [];
    res.writeHead(200, cors).end(JSON.stringify({ response: { numFound: docs.length, start: 0, maxScore: 23.4, docs } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bzk/locatieserver/search/v3_1/free`,
    queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
