/** The part of autocannon's API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Options extends RequestParams {
    url: string;
    connections?: number;
    amount?: number;
    duration?: number;
    timeout?: number;
    requests?: (RequestParams & { setupRequest?: (req: RequestParams) => RequestParams })[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** The run is a thenable event emitter; 'response' fires as each answer completes. */
  export interface Run extends Promise<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): Run;
  }
  export default function autocannon(options: Options): Run;
}
