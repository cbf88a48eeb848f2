// The webhooks stage (being built).
import type { Stage } from './session.js';

export const webhooksStage: Stage = {
  run: () => Promise.reject(new Error('the webhooks stage is not built yet')),
};
