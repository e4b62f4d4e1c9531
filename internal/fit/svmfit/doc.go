// Package svmfit is the fitting service's SVM trainers: "svm" (SMO, with a
// kernel or a hard margin), "pegasos" and "kernel-pegasos". Each decodes
// its params strictly, refuses a request whose cost model says it would
// run past its work limit before it starts, runs the stepper from
// internal/algos under the request's context and shapes the answer.
//
// fit.Run calls SVM, Pegasos and KernelPegasos after its shared checks;
// the request, limits and error kinds are package fitreq's.
package svmfit
