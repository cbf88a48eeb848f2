// Breaking changes between two bundled OpenAPI documents (api-smart-diff plus this contract's rules), and version bumps.
import { apiCompare } from 'api-smart-diff';

/** Key under which a webhook is compared as if it were a path (api-smart-diff knows only `paths`). */
const WEBHOOK = 'webhook:';

/**
 * Every change from `before` to `after`, each `{ type, path, description }` with type `breaking`, `non-breaking`,
 * `deprecated` or `annotation`, classified by api-smart-diff and then by the rules below.
 */
export function classifyChanges(before, after) {
  return apiCompare(webhooksAsPaths(before), webhooksAsPaths(after)).diffs.map((diff) => {
    const path = diff.path.map(String);
    if (path[0] === 'paths' && path[1]?.startsWith(WEBHOOK))
      path.splice(0, 2, 'webhooks', path[1].slice(WEBHOOK.length));
    // Note: extensions (x-provenance, x-assumed, …) document the contract; they change no request or response.
    const type =
      path.some((key) => key.startsWith('x-')) || isExample(path) || samePattern(diff, path)
        ? 'annotation'
        : (ruleFor(diff, path) ?? diff.type);
    return { type, path: path.join('/'), description: describe(diff, path) };
  });
}

// Note: examples illustrate the contract (a mock serves them); no request or response is accepted or refused by them.
const isExample = (path) =>
  path.some((key, i) => (key === 'example' || key === 'examples') && path[i - 1] !== 'properties');

// A character written as \uXXXX or \xXX, not preceded by an escaped backslash.
const CHAR_ESCAPE = /(?<=(?:^|[^\\])(?:\\\\)*)\\(?:u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2}))/g;
const canonicalPattern = (pattern) =>
  pattern.replace(CHAR_ESCAPE, (_, u, x) => `\\u{${parseInt(u ?? x, 16).toString(16)}}`);

/** True when a pattern was rewritten with other escapes for the same characters, so it matches the same strings. */
function samePattern(diff, path) {
  return (
    diff.action === 'replace' &&
    path.at(-1) === 'pattern' &&
    typeof diff.before === 'string' &&
    typeof diff.after === 'string' &&
    canonicalPattern(diff.before) === canonicalPattern(diff.after)
  );
}

// Note: api-smart-diff ignores the 3.1 `webhooks` section past its top level, so each webhook is compared as an
// operation (its $refs resolved, its schemas diffed), and ruleFor judges it as the receiver sees it.
function webhooksAsPaths(doc) {
  const { webhooks, ...rest } = doc;
  const paths = { ...doc.paths };
  for (const [name, item] of Object.entries(webhooks ?? {})) paths[`${WEBHOOK}${name}`] = item;
  return { ...rest, paths };
}

// The contract's own rules, for what api-smart-diff does not classify or classifies too leniently for this API.
function ruleFor(diff, path) {
  if (diff.type === 'annotation' || diff.type === 'deprecated') return undefined;
  // Note: in a webhook the service sends and the merchant receives, so the tool's view of a request is reversed:
  // anything added (a header, a field) is safe for receivers, anything removed or changed may break them.
  if (path[0] === 'webhooks' && path.length > 3) return diff.action === 'add' ? 'non-breaking' : 'breaking';
  const member = path.at(-2) === 'properties' || path.at(-2) === 'required';
  // Note: api-smart-diff calls the removal of a property nested in a response non-breaking; clients read it.
  if (diff.action === 'remove' && member && path.includes('responses')) return 'breaking';
  // Note: every request body here has additionalProperties: false, so a property removed from it is then rejected.
  if (diff.action === 'remove' && path.at(-2) === 'properties' && path.includes('requestBody')) return 'breaking';
  // Note: what the tool cannot classify needs a person to decide, so it counts as breaking until bumped.
  return diff.type === 'unclassified' ? 'breaking' : undefined;
}

function describe(diff, path) {
  const text = (diff.description ?? '').replace(/\s+/g, ' ').replaceAll(`POST ${WEBHOOK}`, 'webhook ').trim();
  return text || `${diff.action} ${path.join('/')}`;
}

/** The three numbers of an `x.y.z` version; throws on anything else (pre-releases are not used here). */
export function parseVersion(version) {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(String(version));
  if (!match) throw new Error(`"${version}" is not a version of the form x.y.z.`);
  return match.slice(1).map(Number);
}

/** Negative, zero or positive as version `a` is lower than, equal to or higher than `b`. */
export function compareVersions(a, b) {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The version after a `major`, `minor` or `patch` bump; unchanged for `none`. */
export function bumpVersion(version, bump) {
  const [major, minor, patch] = parseVersion(version);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
  if (bump === 'none') return version;
  throw new Error(`Unknown bump "${bump}"; expected major, minor, patch or none.`);
}

/**
 * True when `next` is a major bump of `previous` as npm ranges see it: it leaves `^previous`. From 1.0.0 that is a
 * new major; in 0.x a new minor (^0.1.0 stops before 0.2.0); in 0.0.x any new version.
 */
export function isMajorBump(previous, next) {
  const [pMajor, pMinor, pPatch] = parseVersion(previous);
  const [nMajor, nMinor, nPatch] = parseVersion(next);
  if (nMajor !== pMajor) return nMajor > pMajor;
  if (pMajor > 0) return false;
  if (nMinor !== pMinor) return nMinor > pMinor;
  return pMinor === 0 && nPatch > pPatch;
}

const RANK = { none: 0, patch: 1, minor: 2, major: 3 };

/** The largest bump of `name` among changeset files' front matter (`"<name>": major|minor|patch`), or `none`. */
export function pendingBump(changesetTexts, name) {
  let bump = 'none';
  for (const text of changesetTexts) {
    const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
    for (const line of frontMatter.split(/\r?\n/)) {
      const match = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch|none)\s*$/.exec(line);
      if (match?.[1] === name && RANK[match[2]] > RANK[bump]) bump = match[2];
    }
  }
  return bump;
}
