// The conformance package's entry: runConformance checks a running server of either variant against the contract, and
// the report it returns can be written as text, JSON or JUnit XML.
export { needsState } from './registry.js';
export { formatText, toJson, toJunit } from './report.js';
export { ConformanceUsageError, credentialsFromEnv, runConformance, selectStages } from './run.js';
export { STAGES } from './types.js';
export type {
  CheckResult,
  ConformanceOptions,
  ConformanceReport,
  Credentials,
  Progress,
  RequestRecord,
  ResponseRecord,
  StageName,
} from './types.js';
