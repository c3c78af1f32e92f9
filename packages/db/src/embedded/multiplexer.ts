// Many PostgreSQL wire-protocol connections onto the one session of a PGlite.
//
// PGlite is a single-connection database. `@electric-sql/pglite-socket` serves it over a socket, but
// its multiplexer queues each protocol message on its own, so two connections' extended queries
// interleave (A's Parse, B's Parse, A's Bind binds B's statement), and every connection shares one
// namespace of prepared statements (node-postgres prepares named statements once per connection: two
// connections preparing the same name collide). This one keeps a connection's pipeline whole (every
// message up to its Sync, Query or Flush runs in one call), keeps the session to one connection while it
// is inside a transaction block (or between a Flush and its Sync), and gives each connection its own
// statement names.
import type { PGlite } from '@electric-sql/pglite';
import type { Socket } from 'node:net';

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** A connection's whole pipeline, or (bytes null) its release once it closed. */
interface Unit {
  conn: Connection;
  bytes: Uint8Array | null;
  /** Ends with a Flush: the connection keeps the session until its Sync. */
  holds: boolean;
}

interface Connection {
  id: number;
  socket: Socket;
  buffer: Buffer;
  started: boolean;
  /** Named statements this connection prepared (their names as PGlite knows them). */
  statements: Set<string>;
  closed: boolean;
}

export interface Multiplexer {
  attach(socket: Socket): void;
  /** Connections open now. */
  readonly connections: number;
  /** Waits for the work under way, refuses more, and closes every connection. */
  close(): Promise<void>;
}

export function createMultiplexer(db: PGlite): Multiplexer {
  const queue: Unit[] = [];
  const open = new Set<Connection>();
  let nextId = 1;
  /** The connection holding the session (a transaction block, or a Flush before its Sync). */
  let owner: Connection | null = null;
  let pumping: Promise<void> | null = null;
  let closing = false;

  /** The next unit: the owner's while a connection holds the session, else the oldest. */
  function next(remove: boolean): Unit | undefined {
    const at = owner ? queue.findIndex((u) => u.conn === owner) : queue.length > 0 ? 0 : -1;
    if (at < 0) return undefined;
    return remove ? queue.splice(at, 1)[0] : queue[at];
  }

  async function run(unit: Unit): Promise<void> {
    const { conn } = unit;
    if (!unit.bytes) return release(conn);
    const out: Buffer[] = [];
    await db.execProtocolRawStream(unit.bytes, { onRawData: (data) => void out.push(Buffer.from(data)) });
    if (!conn.closed && out.length > 0) conn.socket.write(out.length === 1 ? out[0]! : Buffer.concat(out));
    owner = unit.holds || db.isInTransaction() ? conn : null;
  }

  /** A connection gone: its transaction rolled back, its statements forgotten. */
  async function release(conn: Connection): Promise<void> {
    if (owner === conn) {
      owner = null;
      if (db.isInTransaction()) await db.exec('ROLLBACK');
    }
    for (const name of conn.statements) {
      await db.exec(`DEALLOCATE "${name}"`).catch(() => undefined);
    }
    conn.statements.clear();
  }

  function pump(): void {
    if (pumping) return;
    pumping = (async () => {
      for (let unit = next(true); unit; unit = next(true)) {
        try {
          await run(unit);
        } catch (error) {
          // PGlite answers SQL errors in the protocol; a throw here is the database itself failing.
          unit.conn.socket.destroy(error as Error);
        }
      }
    })().finally(() => {
      pumping = null;
      // Work may have arrived for the owner while the last unit ran.
      if (next(false)) pump();
    });
  }

  /** Renames a connection's statement (and portal) so that each connection has its own namespace. */
  const scoped = (conn: Connection, name: string) => (name === '' ? '' : `c${conn.id}_${name}`);

  function readName(buf: Buffer, at: number): [string, number] {
    const end = buf.indexOf(0, at);
    return [buf.toString('utf8', at, end), end + 1];
  }

  function message(type: number, body: Buffer): Buffer {
    const head = Buffer.alloc(5);
    head[0] = type;
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  }

  const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');

  /** Parse, Bind, Describe and Close carry statement and portal names: scoped per connection. */
  function rewrite(conn: Connection, msg: Buffer): Buffer {
    const type = msg[0]!;
    if (type === 0x50 /* P */) {
      const [name, at] = readName(msg, 5);
      if (name === '') return msg;
      const renamed = scoped(conn, name);
      conn.statements.add(renamed);
      return message(type, Buffer.concat([cstr(renamed), msg.subarray(at)]));
    }
    if (type === 0x42 /* B */) {
      const [portal, at] = readName(msg, 5);
      const [statement, rest] = readName(msg, at);
      if (portal === '' && statement === '') return msg;
      return message(
        type,
        Buffer.concat([cstr(scoped(conn, portal)), cstr(scoped(conn, statement)), msg.subarray(rest)]),
      );
    }
    if (type === 0x44 /* D */ || type === 0x43 /* C */) {
      const kind = msg[5]!;
      const [name] = readName(msg, 6);
      if (name === '') return msg;
      const renamed = scoped(conn, name);
      if (type === 0x43 && kind === 0x53 /* S */) conn.statements.delete(renamed);
      return message(type, Buffer.concat([Buffer.from([kind]), cstr(renamed)]));
    }
    return msg;
  }

  /** Cuts the connection's buffer into whole messages, and whole pipelines into units. */
  function receive(conn: Connection, data: Buffer): void {
    conn.buffer = conn.buffer.length === 0 ? data : Buffer.concat([conn.buffer, data]);
    const pending: Buffer[] = [];
    let consumed = 0;
    let cut = 0;
    const units: Unit[] = [];
    for (;;) {
      const rest = conn.buffer.length - consumed;
      if (!conn.started) {
        if (rest < 8) break;
        const length = conn.buffer.readInt32BE(consumed);
        if (rest < length) break;
        const code = conn.buffer.readInt32BE(consumed + 4);
        const msg = conn.buffer.subarray(consumed, consumed + length);
        consumed += length;
        cut = consumed;
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          conn.socket.write('N');
        } else if (code === CANCEL_REQUEST) {
          // No backend process to signal: a cancel is dropped (the protocol expects no answer).
          conn.socket.end();
          return;
        } else {
          conn.started = true;
          units.push({ conn, bytes: new Uint8Array(msg), holds: false });
        }
        continue;
      }
      if (rest < 5) break;
      const length = conn.buffer.readInt32BE(consumed + 1) + 1;
      if (rest < length) break;
      const msg = conn.buffer.subarray(consumed, consumed + length);
      consumed += length;
      const type = msg[0]!;
      if (type === 0x58 /* X */) {
        conn.socket.end();
        break;
      }
      pending.push(rewrite(conn, msg));
      if (type === 0x53 /* S */ || type === 0x51 /* Q */ || type === 0x48 /* H */) {
        units.push({ conn, bytes: new Uint8Array(Buffer.concat(pending)), holds: type === 0x48 });
        pending.length = 0;
        cut = consumed;
      }
    }
    // A pipeline not yet ended by its Sync stays in the buffer until the rest arrives.
    conn.buffer = conn.buffer.subarray(cut);
    if (units.length === 0) return;
    queue.push(...units);
    pump();
  }

  return {
    attach(socket) {
      if (closing) {
        socket.destroy();
        return;
      }
      socket.setNoDelay(true);
      const conn: Connection = {
        id: nextId++,
        socket,
        buffer: Buffer.alloc(0),
        started: false,
        statements: new Set(),
        closed: false,
      };
      open.add(conn);
      socket.on('data', (data: Buffer) => receive(conn, data));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        conn.closed = true;
        open.delete(conn);
        for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.conn === conn) queue.splice(i, 1);
        // Released in turn, between units, so that no pipeline is cut in two.
        queue.push({ conn, bytes: null, holds: false });
        pump();
      });
    },
    get connections() {
      return open.size;
    },
    async close() {
      closing = true;
      for (const conn of open) conn.socket.destroy();
      while (pumping) await pumping;
    },
  };
}
