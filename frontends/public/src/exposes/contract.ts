// Compile-time only (nothing imports this file): the modules this remote exposes have exactly the
// shapes the shell loads them with. A mismatch fails `tsc -b` here rather than at run time in the shell.
import type { PublicRemoteExposes, PublicRemoteSharedExposes } from '@clipit/frontend-contracts';
import type * as addClipDialog from './AddClipDialog.js';
import type * as routes from './routes.js';
import type * as submissionForm from './SubmissionForm.js';
import type * as version from './version.js';
import type * as viewHistory from './ViewHistory.js';

type Implements<Actual extends Expected, Expected> = [Actual, Expected];

export type Contract = [
  Implements<typeof routes, PublicRemoteExposes['./routes']>,
  Implements<typeof version, PublicRemoteExposes['./version']>,
  Implements<typeof addClipDialog, PublicRemoteExposes['./AddClipDialog']>,
  Implements<typeof submissionForm, PublicRemoteSharedExposes['./SubmissionForm']>,
  Implements<typeof viewHistory, PublicRemoteSharedExposes['./ViewHistory']>,
];
