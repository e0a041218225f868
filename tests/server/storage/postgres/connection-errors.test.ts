import { describe, expect, it } from 'vitest';
import { connectionLost, pgUnavailability } from '../../../../src/server/storage/postgres/connection-errors';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('which PostgreSQL errors mean the database is gone (503), not that the request was wrong', () => {
  it('connection exceptions, a server going away or starting, refused logins, no room, and broken sockets', () => {
    const gone = [
      pgError('08006'), pgError('08003'), pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P02'), pgError('57P03', 'the database system is starting up'), pgError('53300', 'too many connections'),
      pgError('28P01'), pgError('3D000'), pgError('55000', 'the database system is shutting down'),
      pgError('ECONNREFUSED'), pgError('ECONNRESET'), new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'), new Error('Client has encountered a connection error and is not queryable'),
    ];
    expect(gone.filter((e) => !connectionLost(e)).map((e) => e.message)).toEqual([]);
  });

  it('a request the database refused, or a fault of ours, stays what it is', () => {
    const wrong = [pgError('23505'), pgError('22P02'), pgError('PT409'), pgError('55000', 'object not in prerequisite state'), pgError('57014'), new TypeError('x is undefined')];
    expect(wrong.filter((e) => connectionLost(e)).map((e) => e.message)).toEqual([]);
  });
});

describe('how PostgreSQL refuses for now, told apart (a lock is not an outage)', () => {
  it('a lock not granted or a deadlock is busy, a full disk is full, a lost connection unreachable, a wrong request nothing', () => {
    expect([pgError('55P03'), pgError('40P01'), pgError('53100'), pgError('57P01'), pgError('23505')].map(pgUnavailability)).toEqual([
      'busy', 'busy', 'full', 'unreachable', undefined,
    ]);
  });
});
