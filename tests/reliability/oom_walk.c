/* See oom_walk.h. */
#include <check.h>

#include "core.h"
#include "oom_walk.h"

oom_result oom_walk(const oom_op *op, void *ctx)
{
    oom_result res = {0, 0};
    for (int sticky = 0; sticky <= 1; sticky++) {
        for (uint64_t k = 1;; k++) {
            ck_assert_msg(k < 1000000, "%s: no completion after 10^6 injected failures", op->name);
            toggle_clear_error();
            toggle__alloc_fail_at(k, sticky);
            int rc = op->run(ctx);
            uint64_t calls = toggle__alloc_calls();
            toggle__alloc_fail_at(0, false);
            if (rc == TOGGLE_OK) {
                const char *msg = op->accept ? op->accept(ctx) : NULL;
                ck_assert_msg(msg == NULL, "%s: wrong result after failing allocation %llu "
                              "(%s): %s", op->name, (unsigned long long)k,
                              sticky ? "sticky" : "once", msg);
                if (calls < k) {
                    if (calls > res.sites)
                        res.sites = calls;
                    break;
                }
                continue; /* survived a failed allocation (fallback path) */
            }
            res.failures++;
            ck_assert_msg(rc == TOGGLE_ENOMEM || (op->also && rc == op->also),
                          "%s: allocation %llu failing (%s) gave %s: %s", op->name,
                          (unsigned long long)k, sticky ? "sticky" : "once",
                          toggle_status_name(rc), toggle_last_error());
            ck_assert_msg(toggle_last_error()[0] != '\0', "%s: ENOMEM without a message",
                          op->name);
            ck_assert_msg(!op->unchanged || op->unchanged(ctx),
                          "%s: caller data changed by a failed call (allocation %llu, %s)",
                          op->name, (unsigned long long)k, sticky ? "sticky" : "once");
        }
    }
    return res;
}
