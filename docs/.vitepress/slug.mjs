// Heading anchors as GitHub makes them, so that a guide's `#anchor` link works both in the repository and on the site.

/** A heading's anchor id, GitHub style: lower case, punctuation dropped, each space a hyphen. */
export const slug = (text) =>
  String(text)
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
