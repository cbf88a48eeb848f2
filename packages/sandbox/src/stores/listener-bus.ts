// The memory store's listener bus: one process, so an emitter does; several sandboxes on one memory store (tests) hear
// each other as instances on one database would.
import { EventEmitter } from 'node:events';
import type { ListenerBus } from './types.js';

/** An in-process ListenerBus. */
export function createMemoryBus(): ListenerBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (tenant) => void emitter.emit('tenant', tenant),
    subscribe(onTenant) {
      emitter.on('tenant', onTenant);
      return () => void emitter.off('tenant', onTenant);
    },
  };
}
