// SPDX-License-Identifier: GPL-2.0-only
/* video: playback of a video at `fps` frames per second, as a player
 * (mpv, VLC, a browser's media pipeline) runs it: three threads.
 *
 *   decode  decodes the frames in order, one burst per frame (decode_us of
 *           work on the reference core, +-jitter_pct from frame to frame,
 *           stall_pct of it memory stall). It may run `ahead` frames ahead
 *           of the display: with a full queue it blocks until the render
 *           thread takes a frame. With ahead=0 it decodes each frame at
 *           that frame's own display tick (live, low-latency playback).
 *           A frame that would be decoded only after its display
 *           interval if decoding took as long as the last frame's did is
 *           not decoded (a player's decoder-side frame dropping, mpv
 *           --framedrop=decoder).
 *   render  wakes at each display tick (an absolute timer: the vsync),
 *           waits for the frame if it is not decoded yet, takes it out of
 *           the queue and renders it (render_us: colour conversion,
 *           scaling, the GL submit). A frame whose display interval is
 *           already over when the render thread gets to it is skipped
 *           without rendering, as a player drops frames to catch up.
 *   audio   its own period (audio_period_us, the sound card's period):
 *           audio_us of work each period, released on an absolute timer;
 *           finishing after the period's end is an underrun.
 *
 * Frame k's display tick is (k + ahead) / fps s, so the decoder has
 * `ahead` frames of preroll. Per-frame latency: from the frame's display
 * tick to the end of its rendering. A frame is dropped when it is skipped
 * or when its rendering ends after its display interval (the tick plus one
 * frame period): the screen showed the previous frame for its slot.
 * Throughput: frames shown on time per second. */
#include <stdio.h>

#include "../core/rng.h"
#include "../engine/sim.h"
#include "wlutil.h"

struct video {
	int64_t fps;
	int64_t decode_us;
	int64_t jitter_pct;
	int64_t stall_pct;
	int64_t ahead;
	int64_t render_us;
	int64_t audio_period_us;
	int64_t audio_us;
	struct rng rng;
	struct task *decoder, *renderer;
	uint64_t decoded;  /* frames decoded: the next one to decode */
	uint64_t consumed; /* frames the render thread took (or skipped) */
	bool decoder_waits, renderer_waits;
	sim_ns decode_start, decode_est; /* the last decoding's start and length */
	struct wl_fifo skipped;          /* frames the decoder did not decode, in order */
	uint64_t shown, dropped, underruns;
};

static const struct tunable video_params[] = {
	{ "fps", "frames per second (24, 25, 30, 60, ...)", TUNABLE_FIELD(struct video, fps), 30, 1, 240, NULL },
	{ "decode_us", "decoding work per frame, us on the reference 3 GHz core",
	  TUNABLE_FIELD(struct video, decode_us), 6000, 0, 10000000, NULL },
	{ "jitter_pct", "decode work varies uniformly within +- this % from frame to frame",
	  TUNABLE_FIELD(struct video, jitter_pct), 30, 0, 100, NULL },
	{ "stall_pct", "share of decoding that is memory stall, %", TUNABLE_FIELD(struct video, stall_pct), 20, 0, 100, NULL },
	{ "ahead", "frames the decoder may decode ahead of the display (0: at each frame's tick)",
	  TUNABLE_FIELD(struct video, ahead), 1, 0, 64, NULL },
	{ "render_us", "rendering work per frame, us on the reference core",
	  TUNABLE_FIELD(struct video, render_us), 1500, 0, 10000000, NULL },
	{ "audio_period_us", "the audio thread's period, us", TUNABLE_FIELD(struct video, audio_period_us),
	  10000, 100, 10000000, NULL },
	{ "audio_us", "audio work per period, us on the reference core (0: no audio thread)",
	  TUNABLE_FIELD(struct video, audio_us), 200, 0, 10000000, NULL },
};

enum { ROLE_DECODE, ROLE_RENDER, ROLE_AUDIO };

/* Display tick of frame k: exact in integer ns, so no drift at 24 fps. */
static sim_ns tick(const struct video *v, uint64_t k)
{
	return (sim_ns)(((uint64_t)v->ahead + k) * (uint64_t)NS_PER_SEC / (uint64_t)v->fps);
}

static sim_ns frame_period(const struct video *v)
{
	return NS_PER_SEC / v->fps;
}

static int video_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct video *v = data;
	rng_init(&v->rng, sim_seed(s), UINT64_C(0x766964656f000000));
	v->decoder = sim_task_new(s, "video/decode", 0);
	v->renderer = sim_task_new(s, "video/render", 0);
	if (!v->decoder || !v->renderer)
		return pm_fail(d, "out of memory");
	v->decoder->wl_role = ROLE_DECODE;
	v->renderer->wl_role = ROLE_RENDER;
	if (v->audio_us > 0) {
		struct task *a = sim_task_new(s, "video/audio", 0);
		if (!a)
			return pm_fail(d, "out of memory");
		a->wl_role = ROLE_AUDIO;
		a->wl_t0 = 0; /* the current period's start */
	}
	return 0;
}

static void decode_next(struct sim *s, struct video *v, struct task *t, struct action *a)
{
	if (t->wl_state) { /* frame `decoded` is done (2) or skipped (1) */
		if (t->wl_state == 2)
			v->decode_est = sim_now(s) - v->decode_start;
		v->decoded++;
		t->wl_state = 0;
		if (v->renderer_waits && v->decoded > v->consumed) {
			v->renderer_waits = false;
			sim_wake(s, v->renderer);
		}
	}
	uint64_t k = v->decoded;
	if (v->ahead == 0 && sim_now(s) < tick(v, k)) {
		*a = (struct action){ .kind = ACT_SLEEP, .until = tick(v, k) };
		return;
	}
	if (v->ahead > 0 && k - v->consumed >= (uint64_t)v->ahead) {
		v->decoder_waits = true; /* the queue is full */
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	if (sim_now(s) + v->decode_est > tick(v, k) + frame_period(v)) {
		/* It would be ready only after its display interval: not worth
		 * decoding. The render thread will drop it. */
		if (wl_fifo_push(&v->skipped, (int)k) < 0) {
			sim_stop(s); /* out of memory: end the run rather than lie */
			*a = (struct action){ .kind = ACT_EXIT };
			return;
		}
		t->wl_state = 1;
		*a = (struct action){ .kind = ACT_RUN };
		return;
	}
	double scale = 1.0;
	if (v->jitter_pct)
		scale += (2.0 * rng_uniform(&v->rng) - 1.0) * (double)v->jitter_pct / 100.0;
	t->wl_state = 2;
	v->decode_start = sim_now(s);
	*a = wl_work((double)v->decode_us * scale, v->stall_pct, false);
}

/* The render thread takes frame `consumed`: its queue slot is free. */
static void take(struct sim *s, struct video *v)
{
	v->consumed++;
	if (v->decoder_waits) {
		v->decoder_waits = false;
		sim_wake(s, v->decoder);
	}
}

static void render_next(struct sim *s, struct video *v, struct task *t, struct action *a)
{
	sim_ns now = sim_now(s), period = frame_period(v);
	if (t->wl_state == 1) { /* frame wl_t0's rendering is done */
		sim_ns due = tick(v, (uint64_t)t->wl_t0);
		sim_record_latency(s, now - due);
		if (now > due + period) {
			v->dropped++;
		} else {
			v->shown++;
			sim_add_work(s, 1);
		}
		t->wl_state = 0;
	}
	for (;;) {
		uint64_t k = v->consumed;
		if (now < tick(v, k)) {
			*a = (struct action){ .kind = ACT_SLEEP, .until = tick(v, k) };
			return;
		}
		if (v->decoded <= k) {
			v->renderer_waits = true;
			*a = (struct action){ .kind = ACT_BLOCK };
			return;
		}
		take(s, v);
		bool undecoded = v->skipped.len && v->skipped.v[v->skipped.head] == (int)k;
		if (undecoded)
			wl_fifo_pop(&v->skipped);
		if (undecoded || now >= tick(v, k) + period) {
			v->dropped++; /* not decoded, or its interval is over: skip it */
			continue;
		}
		t->wl_t0 = (sim_ns)k;
		t->wl_state = 1;
		*a = wl_work((double)v->render_us, 0, false);
		return;
	}
}

static void audio_next(struct sim *s, struct video *v, struct task *t, struct action *a)
{
	sim_ns now = sim_now(s), period = v->audio_period_us * NS_PER_US;
	if (t->wl_state == 1) {
		if (now > t->wl_t0 + period)
			v->underruns++;
		t->wl_t0 += period;
		while (t->wl_t0 + period <= now) /* periods missed altogether */
			t->wl_t0 += period;
		t->wl_state = 0;
	}
	if (now < t->wl_t0) {
		*a = (struct action){ .kind = ACT_SLEEP, .until = t->wl_t0 };
		return;
	}
	t->wl_state = 1;
	*a = wl_work((double)v->audio_us, 0, false);
}

static void video_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct video *v = data;
	switch (t->wl_role) {
	case ROLE_DECODE: decode_next(s, v, t, a); return;
	case ROLE_RENDER: render_next(s, v, t, a); return;
	default: audio_next(s, v, t, a); return;
	}
}

static void video_report(struct sim *s, void *data, struct run_result *r)
{
	struct video *v = data;
	uint64_t due = v->shown + v->dropped;
	wl_extra(r, "frames_dropped", "frames", (double)v->dropped);
	wl_extra(r, "dropped_pct", "%", due ? 100.0 * (double)v->dropped / (double)due : 0.0);
	wl_extra(r, "audio_underruns", "periods", (double)v->underruns);
}

static void video_fini(void *data)
{
	struct video *v = data;
	wl_fifo_free(&v->skipped);
}

const struct workload_ops workload_video = {
	.name = "video",
	.summary = "video playback: decode burst per frame, render at each vsync, audio period",
	.throughput_unit = "frames/s",
	.latency_what = "frame latency (tick to rendered)",
	.params = video_params,
	.nparams = WL_NPARAMS(video_params),
	.data_size = sizeof(struct video),
	.init = video_init,
	.next = video_next,
	.report = video_report,
	.fini = video_fini,
};
