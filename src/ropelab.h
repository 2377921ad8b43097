/* ropelab.h: the one public header of the ropelab core library.
 *
 * Names follow prefix_module_verb (rl_schedule_rope, rl_decay_eval, ...).
 * Functions that can fail return an rl_status and write results through
 * out-parameters; workspaces are owned by the caller (_alloc/_free, and
 * every _free accepts NULL).
 *
 * The core keeps three things apart, so that adding one never touches
 * the others:
 *   - a frequency schedule (rl_schedule): the theta_i of a RoPE variant;
 *   - a rotation (rl_rope_*): what RoPE does with any schedule;
 *   - a measure (rl_decay_*, rl_mc_*): what is computed from them.
 */
#ifndef ROPELAB_H
#define ROPELAB_H


#include "ropelab/status.h"
#include "ropelab/param.h"
#include "ropelab/schedule.h"
#include "ropelab/angle.h"
#include "ropelab/precision.h"
#include "ropelab/rope.h"
#include "ropelab/grid.h"
#include "ropelab/decay.h"
#include "ropelab/mc.h"
#include "ropelab/check.h"
#include "ropelab/numfmt.h"
#include "ropelab/scheme.h"
#include "ropelab/array.h"
#include "ropelab/file.h"
#include "ropelab/freqs.h"
#include "ropelab/report.h"
#include "ropelab/audit.h"
#include "ropelab/bounds.h"
#include "ropelab/measures.h"
#include "ropelab/model.h"
#include "ropelab/audit_findings.h"
#include "ropelab/scheme_key.h"
#include "ropelab/train.h"
#include "ropelab/train_run.h"

#endif
