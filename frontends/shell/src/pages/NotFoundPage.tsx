import { Link } from '@clipit/router';
import { useDocumentTitle } from '../routing/useDocumentTitle.js';

export const NOT_FOUND_TITLE = '404 Page Not Found';
export const NOT_FOUND_DESCRIPTION = 'There is no such page on CLIP IT.';

/** Any route no remote claims (spec 01 §2: "any other → 404 page, title: 404 Page Not Found"). */
export function NotFoundPage() {
  useDocumentTitle(NOT_FOUND_TITLE, NOT_FOUND_DESCRIPTION);
  return (
    <section className="clipit-not-found">
      <h1>{NOT_FOUND_TITLE}</h1>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
