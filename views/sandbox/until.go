package sandbox

// U opens the prompt on "until ": the learner types what an expect line
// checks (txn app state PrepareCommit, event kind=marker, markers 1), and
// the session steps the world until it holds, as one "step N", or says it
// never came within its bound and leaves the world as it was.
const untilLead = "until "
