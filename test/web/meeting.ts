// The meeting the fake microphone plays in the browser tests: two flite voices, an action
// ("I will send the report …") and a decision for the extraction to find.
export const MEETING = [
  { voice: 'rms' as const, text: 'The new version is ready and the tests are passing.' },
  { voice: 'slt' as const, text: 'Good morning everyone. Let us look at the plan for this week.' },
  { voice: 'rms' as const, text: 'I will send the report to the team by Friday.' },
  { voice: 'slt' as const, text: 'Thank you. We decided to move the launch to next week.' },
]
