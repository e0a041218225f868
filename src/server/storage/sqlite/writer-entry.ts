// Entry of the request writer thread (compiled to dist/server/sqlite-writer.js).
import { workerData } from 'node:worker_threads';
import { serveRequestWriter } from './request-writer';

serveRequestWriter(workerData);
