// The state file: every tenant and Variant B's key digests, as node:v8 serialization (Maps, bigints and typed arrays
// survive it) behind a header, so that a corrupt or foreign file is recognised and refused rather than read or replaced.
//   bytes 0-7 "MPSBXST\n" | 8-11 format version (uint32 BE) | 12-43 SHA-256 of the payload | 44- payload
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { TenantState } from '../core/index.js';

const MAGIC = Buffer.from('MPSBXST\n', 'latin1');
/**
 * The format this build writes and reads; a file of another version is refused. 2: a tenant's event log is bounded and
 * counts the changes that left it (TenantState.eventsDropped, eventLogLimit), which a format-1 tenant lacks. 3: each
 * delivery holds its own change (Delivery.change), which a format-2 delivery still under way would send without.
 */
export const STATE_FORMAT_VERSION = 3;
const HEADER = MAGIC.length + 4 + 32;

/** What the state file holds. */
export interface SandboxState {
  tenants: Map<string, TenantState>;
  /** Variant B: the SHA-256 digest of the secret key first seen with each tenant's public key (also in TenantState.secretKeyDigest; files of earlier builds have it here only). */
  keys: Map<string, Uint8Array>;
}

/** The state file cannot be used; the message says why and what to do. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

/** The file's bytes for a state. */
export function encodeState(state: SandboxState): Buffer {
  const payload = serialize(state);
  const version = Buffer.alloc(4);
  version.writeUInt32BE(STATE_FORMAT_VERSION);
  return Buffer.concat([MAGIC, version, createHash('sha256').update(payload).digest(), payload]);
}

/** The state in a file's bytes; throws StateFileError naming `file` when they are not a state file this build reads. */
export function decodeState(bytes: Buffer, file: string): SandboxState {
  const refuse = (why: string) =>
    new StateFileError(`${file} ${why}. The sandbox did not start and left the file as it is; pass another --state file, or move this one away to start afresh.`);
  if (bytes.length < HEADER || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw refuse('is not a sandbox state file');
  const version = bytes.readUInt32BE(MAGIC.length);
  if (version !== STATE_FORMAT_VERSION) throw refuse(`has state format ${version}, and this version of the sandbox reads format ${STATE_FORMAT_VERSION}`);
  const payload = bytes.subarray(HEADER);
  if (!createHash('sha256').update(payload).digest().equals(bytes.subarray(MAGIC.length + 4, HEADER))) throw refuse('is corrupt (its checksum does not match)');
  let state: unknown;
  try {
    state = deserialize(payload);
  } catch {
    throw refuse('is corrupt (it cannot be read)');
  }
  if (!isState(state)) throw refuse('does not hold sandbox tenants');
  return state;
}

function isState(value: unknown): value is SandboxState {
  const state = value as Partial<SandboxState> | null;
  return state?.tenants instanceof Map && state.keys instanceof Map && [...state.tenants.values()].every((t) => typeof t?.id === 'string' && t.clock !== undefined);
}

/** Reads the state file (synchronously: once, at start); undefined when it does not exist yet. */
export function loadState(file: string): SandboxState | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // Note: checked now, or the first change would fail to save with the sandbox already serving.
      if (!statSync(path.dirname(file), { throwIfNoEntry: false })?.isDirectory()) throw new StateFileError(`${path.dirname(file)}, the folder of ${file}, does not exist; the sandbox did not start.`);
      return undefined;
    }
    throw new StateFileError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); the sandbox did not start.`);
  }
  return decodeState(bytes, file);
}

/** Writes the bytes to a new file beside `file`, flushes it to disk, then renames it over `file`: never half a file. */
export async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
