// SPDX-License-Identifier: GPL-2.0-only
/* The t distribution through the regularized incomplete beta function,
 * evaluated with its continued fraction (modified Lentz), which converges
 * quickly for the parameters used here (a = df/2, b = 1/2). */
#include "stats.h"

#include <math.h>

double stats_mean(const double *x, int n)
{
	double s = 0;
	int i;

	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++)
		s += x[i];
	return s / n;
}

double stats_sd(const double *x, int n)
{
	double m = stats_mean(x, n), s = 0;
	int i;

	if (n < 2)
		return 0;
	/* Two passes: differences from the mean, not sum of squares minus the
	 * square of the sum, which cancels badly when the spread is small. */
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (n - 1));
}

/* Continued fraction of I_x(a, b), valid for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* Regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(|T| >= |t|). */
static double t_two_sided(double t, double df)
{
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail = t_two_sided(t, df) / 2;

	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, q = p > 0.5 ? p : 1 - p;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	/* The distribution is symmetric: find the upper quantile by bisection,
	 * which cannot fail to converge and is fast enough for a table. */
	while (stats_t_cdf(hi, df) < q && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return p > 0.5 ? (lo + hi) / 2 : -(lo + hi) / 2;
}

double stats_ci_half(const double *x, int n, double level)
{
	if (n < 2)
		return 0;
	return stats_t_quantile((1 + level) / 2, n - 1) * stats_sd(x, n) / sqrt(n);
}

double stats_welch_p(const double *a, int na, const double *b, int nb)
{
	double va, vb, se2, t, df;

	if (na < 2 || nb < 2)
		return -1;
	va = stats_sd(a, na);
	vb = stats_sd(b, nb);
	va = va * va / na;
	vb = vb * vb / nb;
	se2 = va + vb;
	t = stats_mean(a, na) - stats_mean(b, nb);
	if (!(se2 > 0))
		return t == 0 ? 1 : 0;
	df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	t /= sqrt(se2);
	return t_two_sided(t, df);
}
