// tui/app.cc — the viewer's state and keys (tui/app.h).
#include "app.h"

#include <curses.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "pages.h"
#include "source_files.h"
#include "terminal.h"
#include "views/function_detail.h"

namespace calltree::tui {
namespace {

constexpr const char* help_lines[] = {
    "Up Down j k       move the selection (the mouse wheel too)",
    "PgUp PgDn Home End  a screen up or down, the first or last line",
    "Enter Right l     open what the selection names: a function's callers and callees, a",
    "                  group's functions, a call tree frame's children (again: close it)",
    "Backspace h       back to the view before (Left too, but in the call tree)",
    "Left              (call tree) close the frame, or go to its parent",
    "F I H             (call tree) focus on, ignore, hide the selected frame's function",
    "M R X             (call tree) merge clones, collapse recursion (again: undo); X: none",
    "f                 the selected function's callers and callees",
    "s                 the annotated source of the selected function's file",
    "a                 the selected function's machine code (objdump; as annotate --asm)",
    "t                 the call tree (the flame graph's tree, as perf report's children)",
    "L                 the function list (of the new profile, with two)",
    "i                 (two profiles) the difference of inclusive costs, or of self costs",
    "o                 the list's order: inclusive, self, calls, name",
    "e                 the next event (every view shows that event's costs)",
    "p                 the next part (a thread, a dump): every part, then each alone",
    "g                 group the list: by object, by file, by class, none",
    "/                 filter the list by a regular expression on names (empty: all)",
    "?                 this help",
    "q                 quit (Ctrl-C too)",
    nullptr,
};

enum class kind { list, function, source, machine_code, tree, help, diff };

struct view {
  kind k = kind::list;
  std::uint32_t id = 0;   // function, source: the function
  bool old_side = false;  // (a difference) id is the old profile's
  list_state list;        // list: what it shows
  std::size_t selected = 0, top = 0;
  std::optional<std::uint64_t> go_to_line;  // source: select this line once made
};

class viewer {
 public:
  viewer(const views::session& s, const views::diff_source* diff, const app_options& o)
      : s_(s), diff_(diff), o_(o), term_(o.mouse) {
    view first;
    if (diff_) first.k = kind::diff;
    history_.push_back(first);
  }

  int loop() {
    bool dirty = true;
    for (;;) {
      view& v = history_.back();
      if (dirty) {
        make(v);
        dirty = false;
      }
      keep_in_view(v);
      if (page_.total &&
          (v.top < page_.first || (v.top + term_.body_rows() > page_.first + page_.lines.size() &&
                                   page_.first + page_.lines.size() < page_.total))) {
        make(v);  // (the list's window moved with the screen)
        keep_in_view(v);
      }
      term_.draw(page_, v.top, v.selected, status_, footer(v));
      status_.clear();
      const input in = term_.next();
      int key = in.key;
      if (in.row >= terminal::first_body_row && key == KEY_MOUSE) {
        const std::size_t at = v.top + static_cast<std::size_t>(in.row - terminal::first_body_row);
        if (at < page_.rows()) v.selected = at;
        if (!in.double_click) continue;
        key = '\r';
      }
      const std::size_t rows = term_.body_rows();
      const std::size_t n = page_.rows();
      switch (key) {
        case 'q':
          return 0;
        case 3:  // Ctrl-C
          return 130;
        case KEY_RESIZE:
          dirty = true;
          break;
        case KEY_UP:
        case 'k':
          if (v.selected > 0) --v.selected;
          break;
        case KEY_DOWN:
        case 'j':
          if (v.selected + 1 < n) ++v.selected;
          break;
        case KEY_PPAGE:
          v.selected -= std::min(v.selected, rows);
          break;
        case KEY_NPAGE:
          v.selected = n ? std::min(n - 1, v.selected + rows) : 0;
          break;
        case KEY_HOME:
          v.selected = 0;
          break;
        case KEY_END:
          v.selected = n ? n - 1 : 0;
          break;
        case '\r':
        case '\n':
        case KEY_ENTER:
        case KEY_RIGHT:
        case 'l':
          dirty = open(v, key == KEY_RIGHT);
          break;
        case KEY_LEFT:
          if (v.k == kind::tree) {
            dirty = close_frame(v);
            break;
          }
          [[fallthrough]];
        case KEY_BACKSPACE:
        case 127:
        case 8:
        case 'h':
          if (history_.size() > 1) {
            history_.pop_back();
            dirty = true;
          } else {
            status_ = "This is the first view.";
          }
          break;
        case 'f':
        case 's':
        case 'a': {
          bool old_side = false;
          if (auto id = selected_function(v, old_side))
            dirty = push(key == 'f'   ? kind::function
                         : key == 's' ? kind::source
                                      : kind::machine_code,
                         *id, old_side);
          break;
        }
        case 't':
          dirty = push(kind::tree, 0);
          break;
        case 'L':
          dirty = push(kind::list, 0);
          break;
        case '?':
          dirty = push(kind::help, 0);
          break;
        case 'e': {
          if (v.k == kind::diff) {
            const auto events = diff_->compared.size();
            diff_state_.event = events ? (diff_state_.event + 1) % events : 0;
          } else {
            const auto events = event_names(s_).size();
            event_ = events ? (event_ + 1) % events : 0;
            tree_.reset();
          }
          dirty = true;
          break;
        }
        case 'p':
          // The parts in turn: every part summed, then each alone (a thread, a dump).
          if (!diff_ && s_.p.parts.size() > 1) {
            if (parts_.empty())
              parts_ = {0};
            else if (parts_[0] + 1 < s_.p.parts.size())
              parts_ = {parts_[0] + 1};
            else
              parts_.clear();
            tree_.reset();
            v.selected = v.top = 0;
            dirty = true;
          } else {
            status_ = "This profile has one part.";
          }
          break;
        case 'F':
        case 'I':
        case 'H':
          // The call tree: focus on, ignore or hide the selected frame's function.
          if (v.k == kind::tree) {
            if (const line* l = page_.at(v.selected); l && l->function) {
              const std::string name(s_.name(*l->function));
              (key == 'F'   ? filters_.focus
               : key == 'I' ? filters_.ignore
                            : filters_.hide)
                  .push_back(name);
              tree_.reset();
              v.selected = v.top = 0;
              dirty = true;
            }
          }
          break;
        case 'M':
        case 'R':
        case 'X':
          if (v.k == kind::tree) {
            if (key == 'M') filters_.merge_clones = !filters_.merge_clones;
            if (key == 'R') filters_.collapse_recursion = !filters_.collapse_recursion;
            if (key == 'X') filters_ = tree_filters{};
            tree_.reset();
            v.selected = v.top = 0;
            dirty = true;
          }
          break;
        case 'i':
          if (v.k == kind::diff) {
            diff_state_.inclusive = !diff_state_.inclusive;
            v.selected = v.top = 0;
            dirty = true;
          }
          break;
        case 'o':
          if (v.k == kind::list) {
            v.list.by = v.list.by == views::sort_by::inclusive ? views::sort_by::self
                        : v.list.by == views::sort_by::self    ? views::sort_by::calls
                        : v.list.by == views::sort_by::calls   ? views::sort_by::name
                                                               : views::sort_by::inclusive;
            v.selected = v.top = 0;
            dirty = true;
          }
          break;
        case 'g':
          if (v.k == kind::list) {
            v.list.group = v.list.group == views::grouping::none     ? views::grouping::object
                           : v.list.group == views::grouping::object ? views::grouping::file
                           : v.list.group == views::grouping::file   ? views::grouping::klass
                                                                     : views::grouping::none;
            v.list.in_group.reset();
            v.selected = v.top = 0;
            dirty = true;
          }
          break;
        case '/':
          if (v.k == kind::list || v.k == kind::diff) {
            std::string& filter = v.k == kind::list ? v.list.filter : diff_state_.filter;
            std::string text = filter;
            if (term_.prompt("Filter (regular expression): ", text)) {
              filter = text;
              v.selected = v.top = 0;
            }
            dirty = true;
          }
          break;
        default:
          break;
      }
    }
  }

 private:
  // The page of view v, for the terminal's width (an error: the page says it).
  void make(view& v) {
    const std::size_t width = term_.width();
    result<page> made = page{};
    switch (v.k) {
      case kind::list:
        v.list.event = event_;
        v.list.parts = parts_;
        // (Only the rows near the screen are made: 300 k rows of a big profile took a second.)
        made = list_page(s_, v.list, width, v.top > window / 4 ? v.top - window / 4 : 0, window);
        break;
      case kind::diff:
        made = diff_page(*diff_, diff_state_, width);
        break;
      case kind::function:
        made = function_page(side(v), v.id, event_of(v), diff_ ? no_parts : parts_, width);
        if (made && diff_) made->title += v.old_side ? "  (old profile)" : "  (new profile)";
        break;
      case kind::source:
        made = source_page(
            side(v), v.id, event_of(v),
            [this, &v](const std::string& name, std::string& why_not) {
              auto text = server::detail::read_source(name, side(v).options);
              if (!text.found) why_not = text.message;
              return text.lines;
            },
            width);
        break;
      case kind::machine_code:
        made = asm_page(side(v), v.id, event_of(v), diff_ ? no_parts : parts_, o_.objdump, width);
        break;
      case kind::tree:
        if (!tree_) {
          auto t = tree_of(s_, event_, parts_, filters_);
          if (!t) {
            made = t.error();
            break;
          }
          tree_ = std::move(*t);
        }
        made = tree_page(s_, *tree_, width);
        break;
      case kind::help: {
        page p;
        p.title = "Keys";
        p.header = "";
        for (const char* const* l = help_lines; *l; ++l) {
          line h;
          h.text = *l;
          p.lines.push_back(std::move(h));
        }
        made = p;
        break;
      }
    }
    if (made) {
      page_ = std::move(*made);
    } else {
      page_ = page{};
      page_.title = "calltree tui";
      page_.note = made.error().message;
      // (The views' words are the page's: here the profile is read again by starting again.)
      const std::string reload = "reload the page to read it again";
      if (const auto at = page_.note.find(reload); at != std::string::npos)
        page_.note.replace(at, reload.size(), "quit (q) and open it again");
    }
    if (v.go_to_line) {
      for (std::size_t i = 0; i < page_.lines.size(); ++i)
        if (page_.lines[i].source_line && *page_.lines[i].source_line >= *v.go_to_line) {
          v.selected = i;
          v.top = i > 3 ? i - 3 : 0;
          break;
        }
      v.go_to_line.reset();
    }
    if (v.selected >= page_.rows()) v.selected = page_.rows() ? page_.rows() - 1 : 0;
  }

  void keep_in_view(view& v) {
    const std::size_t rows = term_.body_rows();
    if (v.selected < v.top) v.top = v.selected;
    if (v.selected >= v.top + rows) v.top = v.selected - rows + 1;
  }

  // The session a view shows: the new profile's, or the old one's for a function of it.
  const views::session& side(const view& v) const {
    return v.old_side && diff_ ? diff_->old_side() : s_;
  }
  // The event a view shows: of a difference's functions, the compared event of the list.
  std::size_t event_of(const view& v) const {
    if (!diff_ || diff_->compared.empty()) return event_;
    const auto names = event_names(side(v));
    const auto& name = diff_->compared[std::min(diff_state_.event, diff_->compared.size() - 1)];
    const auto at = std::find(names.begin(), names.end(), name);
    return at == names.end() ? event_ : static_cast<std::size_t>(at - names.begin());
  }

  std::optional<std::uint32_t> selected_function(const view& v, bool& old_side) const {
    old_side = v.old_side;
    if (const line* l = page_.at(v.selected); l && l->function) {
      old_side = l->old_side || (v.old_side && v.k != kind::diff);
      return l->function;
    }
    if (v.k == kind::function || v.k == kind::source) return v.id;
    status_ = "No function is selected.";
    return std::nullopt;
  }

  bool push(kind k, std::uint32_t id, bool old_side = false) {
    view v;
    v.k = k;
    v.id = id;
    v.old_side = old_side;
    if (k == kind::list) v.list = history_.front().list;
    if (k == kind::source) {
      views::detail_query q;
      if (auto d = views::describe_function(side(v), id, q); d && d->first_line)
        v.go_to_line = d->first_line;
    }
    history_.push_back(std::move(v));
    return true;
  }

  bool open(view& v, bool only_open) {
    if (!page_.at(v.selected)) return false;
    const line& l = *page_.at(v.selected);
    if (v.k == kind::tree && l.frame && tree_) {
      const auto f = *l.frame;
      const bool leaf = f + 1 >= tree_->tree.frames() || tree_->tree.parent[f + 1] != f;
      if (leaf) return false;
      tree_->open[f] = only_open ? 1 : !tree_->open[f];
      return true;
    }
    if (v.k == kind::list && l.group) {
      view g = v;
      g.list.in_group = *l.group;
      g.selected = g.top = 0;
      history_.push_back(std::move(g));
      return true;
    }
    if (l.function)
      return push(kind::function, *l.function, l.old_side || (v.old_side && v.k != kind::diff));
    return false;
  }

  bool close_frame(view& v) {
    if (v.selected >= page_.lines.size() || !tree_) return false;
    const line& l = page_.lines[v.selected];
    if (!l.frame) return false;
    const auto f = *l.frame;
    const bool leaf = f + 1 >= tree_->tree.frames() || tree_->tree.parent[f + 1] != f;
    if (!leaf && tree_->open[f]) {
      tree_->open[f] = 0;
      return true;
    }
    const auto parent = tree_->tree.parent[f];
    if (parent == path_tree::no_frame) return false;
    for (std::size_t i = v.selected; i-- > 0;)
      if (page_.lines[i].frame == parent) {
        v.selected = i;
        break;
      }
    return false;
  }

  std::string footer(const view& v) const {
    std::string keys =
        v.k == kind::list ? " q quit  ? help  Enter open  / filter  o order  e event  p part  "
                            "g group  s source  t tree"
        : v.k == kind::tree
            ? " q quit  ? help  Enter open/close  Bksp back  F focus  I ignore  H hide  "
              "M merge clones  R recursion  X none"
        : v.k == kind::diff
            ? " q quit  ? help  Enter open  / filter  i inclusive/self  e event  s source"
            : " q quit  ? help  Enter open  Bksp back  f function  s source  a asm  t tree  "
              "L list  e event";
    const auto events = diff_ ? diff_->compared : event_names(s_);
    const std::size_t at = diff_ ? diff_state_.event : event_;
    const std::string right =
        (events.empty() ? std::string() : events[std::min(at, events.size() - 1)]) + "  " +
        o_.profile_name + " ";
    const std::size_t w = term_.width();
    if (keys.size() + right.size() < w)
      keys += std::string(w - keys.size() - right.size(), ' ') + right;
    return keys;
  }

  const views::session& s_;
  const views::diff_source* diff_ = nullptr;  // a difference: s_ is its new side
  const app_options& o_;
  terminal term_;
  std::vector<view> history_;
  page page_;
  mutable std::string status_;
  static constexpr std::size_t window = 2000;  // the list's rows made at once
  std::size_t event_ = 0;
  std::vector<std::uint32_t> parts_;  // the parts shown (0-based); empty: every part
  const std::vector<std::uint32_t> no_parts;
  std::optional<tree_state> tree_;
  tree_filters filters_;  // the call tree's
  diff_state diff_state_;
};

}  // namespace

const char* const* key_help() { return help_lines; }

int run(const views::session& s, const app_options& o) {
  signed_costs_scope sums(s.p.signed_costs);  // (a profile of differences: costs signed)
  viewer v(s, nullptr, o);  // (an exception out of a view gives the terminal back as it unwinds)
  return v.loop();
}

int run_diff(const views::diff_source& d, const app_options& o) {
  signed_costs_scope sums(d.old_side().p.signed_costs || d.new_side().p.signed_costs);
  viewer v(d.new_side(), &d, o);
  return v.loop();
}

}  // namespace calltree::tui
