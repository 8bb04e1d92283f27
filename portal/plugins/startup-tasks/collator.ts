// Sets up the browser's collation (the ICU data behind String.prototype.localeCompare) in a task of its own, right after
// the main script: Docusaurus sorts with localeCompare as a docs page renders (the active docs plugin, the breadcrumbs,
// the navbar's secondary menu), and the first call loads that data, 12-50 ms here (four times that on Lighthouse's
// phone) inside a step of the hydration that cannot be split.
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

if (ExecutionEnvironment.canUseDOM) setTimeout(() => 'a'.localeCompare('b'));
