// The invariants stage (being built).
import type { Stage } from './session.js';

export const invariantsStage: Stage = {
  run: () => Promise.reject(new Error('the invariants stage is not built yet')),
};
