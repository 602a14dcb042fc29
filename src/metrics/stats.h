// SPDX-License-Identifier: GPL-2.0-only
/* Statistics of a few repeated runs: mean, sample standard deviation,
 * Student t confidence intervals and Welch's two-sample t-test. Runs of a
 * simulation with different seeds are independent samples of the same
 * figure, so these are the textbook small-sample tools; nothing here
 * assumes more than a handful of runs. */
#ifndef PMLAB_STATS_H
#define PMLAB_STATS_H

double stats_mean(const double *x, int n);
/* Sample standard deviation (n - 1 denominator); 0 when n < 2. */
double stats_sd(const double *x, int n);
/* Student's t distribution with df (> 0, not necessarily whole) degrees of
 * freedom: P(T <= t), and its inverse for 0 < p < 1. */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
/* Half-width of the two-sided `level` (e.g. 0.95) confidence interval of
 * the mean: t_{(1+level)/2, n-1} * sd / sqrt(n); 0 when n < 2. */
double stats_ci_half(const double *x, int n, double level);
/* Two-sided p-value of Welch's t-test that a and b have the same mean
 * (unequal variances, Welch-Satterthwaite degrees of freedom). Two samples
 * without spread give 1 when their means are equal and 0 otherwise.
 * Negative when undefined (na < 2 or nb < 2). */
double stats_welch_p(const double *a, int na, const double *b, int nb);

#endif
