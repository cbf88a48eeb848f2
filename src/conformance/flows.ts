// The flows stage (being built).
import type { Stage } from './session.js';

export const flowsStage: Stage = {
  run: () => Promise.reject(new Error('the flows stage is not built yet')),
};
