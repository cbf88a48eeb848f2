// The memory store's listener bus: one process, so an emitter does; several sandboxes on one memory store (tests) hear
// each other as instances on one database would.
import { EventEmitter } from 'node:events';
import type { ListenerBus } from './types.js';

/** An in-process ListenerBus. */
export function createMemoryBus(): ListenerBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (tenant, endpoint) => void emitter.emit('listener', tenant, endpoint),
    subscribe(onListener) {
      emitter.on('listener', onListener);
      return () => void emitter.off('listener', onListener);
    },
  };
}
