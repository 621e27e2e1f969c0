'use strict';
// Mutation runs only: a property that fails has killed its mutant, so fast-check stops at the first
// counterexample instead of shrinking it (shrinking can take longer than the run that found it).
require('fast-check').configureGlobal({ endOnFailure: true });
