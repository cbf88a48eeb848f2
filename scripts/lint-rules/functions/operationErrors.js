// Spectral function: error responses of an operation (401, a 4xx, problem+json bodies).
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const mediaTypes = (content) =>
  isObject(content) ? Object.keys(content).map((m) => m.split(';')[0].trim().toLowerCase()) : [];

/** Reports an operation (resolved document) without 401, without any 4xx, or with a non-problem+json error body. */
export default function operationErrors(operation, options, context) {
  if (!isObject(operation)) return [];
  const problem = options?.mediaType ?? 'application/problem+json';
  const [, route, method] = context.path;
  const where = `${String(method).toUpperCase()} ${route}`;
  const responses = isObject(operation.responses) ? operation.responses : {};
  const codes = Object.keys(responses);
  const at = [...context.path, 'responses'];
  const results = [];
  if (!codes.includes('401')) results.push({ message: `${where} does not declare a 401 response`, path: at });
  if (!codes.some((c) => /^4(\d\d|XX)$/i.test(c)))
    results.push({ message: `${where} declares no 4xx response`, path: at });
  for (const code of codes.filter((c) => /^[45](\d\d|XX)$/i.test(c))) {
    const types = mediaTypes(responses[code]?.content);
    if (!types.includes(problem)) {
      results.push({ message: `${where} response ${code} has no ${problem} content`, path: [...at, code] });
    }
    if (types.includes('application/json')) {
      results.push({
        message: `${where} response ${code} declares application/json content; error bodies are ${problem} only`,
        path: [...at, code, 'content'],
      });
    }
  }
  return results;
}
