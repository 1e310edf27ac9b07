import { SubmissionForm } from '../components/submission-form.js';
import '../styles/public.css';
import '../styles/submit.css';

/** /submit: the submission form under its heading (spec 01 §2 "Submit"). */
export default function SubmitPage() {
  return (
    <div className="clipit-page clipit-submit-page">
      <header className="clipit-submit-header">
        <h1>Submit Your Clip</h1>
        <p className="clipit-lead">
          Submit your Twitter/X post with its video upload. Approved clips appear in the feed and earn $CLIP rewards.
        </p>
      </header>
      <SubmissionForm />
    </div>
  );
}
