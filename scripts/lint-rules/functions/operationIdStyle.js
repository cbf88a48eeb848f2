// Spectral function: operationId style for path operations (verb first) and webhooks ("on" first).
const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
const startsWith = (id, word) => id.startsWith(word) && (id.length === word.length || /[A-Z0-9]/.test(id[word.length]));

/** Reports an operationId that is not camelCase or does not start with an allowed verb (paths) or prefix (webhooks). */
export default function operationIdStyle(operation, options, context) {
  const id = operation?.operationId;
  if (typeof id !== 'string') return [];
  const [section, name, method] = context.path;
  const webhook = section === 'webhooks';
  const where = webhook
    ? `webhook ${name} (${String(method).toUpperCase()})`
    : `${String(method).toUpperCase()} ${name}`;
  const path = [...context.path, 'operationId'];
  if (!CAMEL.test(id)) return [{ message: `operationId "${id}" of ${where} is not camelCase`, path }];
  const words = webhook ? [options?.webhookPrefix ?? 'on'] : (options?.verbs ?? []);
  if (!words.some((w) => startsWith(id, w))) {
    return [
      {
        message: `operationId "${id}" of ${where} does not start with ${webhook ? `"${words[0]}"` : `a verb (${words.join(', ')})`}`,
        path,
      },
    ];
  }
  return [];
}
