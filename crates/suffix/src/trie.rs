//! A trie of token strings over integer symbols: mining's continuations ask it which mined
//! string is the longest prefix of a candidate ([`crate::mine`]), and the token matcher builds
//! its Aho–Corasick automaton on it ([`crate::tokenmatch`]).

use rustc_hash::FxHashMap;

/// A trie of symbol strings; node 0 is the root.
pub(crate) struct Trie {
    /// The root's children, by symbol (0: none); the root has most symbols as children.
    root: Vec<u32>,
    /// Every other node's children.
    edges: FxHashMap<(u32, u32), u32>,
    /// Each node's depth (its prefix's length).
    depth: Vec<u32>,
    /// Whether one of the strings ends at the node.
    ends: Vec<bool>,
}

impl Trie {
    /// The trie of `strings` (an empty string marks nothing).
    pub(crate) fn new<S: IntoIterator<Item = u32>>(strings: impl IntoIterator<Item = S>) -> Trie {
        let mut trie = Trie {
            root: Vec::new(),
            edges: FxHashMap::default(),
            depth: vec![0],
            ends: vec![false],
        };
        for s in strings {
            let mut node = 0u32;
            for sym in s {
                node = match trie.child(node, sym) {
                    Some(next) => next,
                    None => trie.add(node, sym),
                };
            }
            if node != 0 {
                trie.ends[node as usize] = true;
            }
        }
        trie
    }

    fn add(&mut self, node: u32, sym: u32) -> u32 {
        let next = self.depth.len() as u32;
        self.depth.push(self.depth[node as usize] + 1);
        self.ends.push(false);
        if node == 0 {
            let i = sym as usize;
            if self.root.len() <= i {
                self.root.resize(i + 1, 0);
            }
            self.root[i] = next;
        } else {
            self.edges.insert((node, sym), next);
        }
        next
    }

    /// The number of nodes, the root included.
    pub(crate) fn len(&self) -> usize {
        self.depth.len()
    }

    /// The child of `node` by `sym`.
    pub(crate) fn child(&self, node: u32, sym: u32) -> Option<u32> {
        if node == 0 {
            self.root.get(sym as usize).copied().filter(|&t| t != 0)
        } else {
            self.edges.get(&(node, sym)).copied()
        }
    }

    /// Every edge `(node, symbol, child)`, in no particular order.
    pub(crate) fn edges(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        let root = self
            .root
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(sym, &t)| (0, sym as u32, t));
        root.chain(self.edges.iter().map(|(&(s, sym), &t)| (s, sym, t)))
    }

    /// The length of the node's prefix.
    pub(crate) fn depth(&self, node: u32) -> u32 {
        self.depth[node as usize]
    }

    /// Whether one of the strings ends at the node.
    pub(crate) fn is_end(&self, node: u32) -> bool {
        self.ends[node as usize]
    }

    /// The length of the longest string of the trie that `symbols` starts with.
    pub(crate) fn longest_prefix(&self, symbols: impl IntoIterator<Item = u32>) -> Option<usize> {
        let mut node = 0u32;
        let mut best = None;
        for (i, sym) in symbols.into_iter().enumerate() {
            match self.child(node, sym) {
                Some(next) => node = next,
                None => break,
            }
            if self.is_end(node) {
                best = Some(i + 1);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_and_edges() {
        let trie = Trie::new([vec![1, 2], vec![1, 2, 3, 4], vec![7], vec![]]);
        assert_eq!(trie.len(), 6);
        assert_eq!(trie.longest_prefix([1, 2, 3, 9]), Some(2));
        assert_eq!(trie.longest_prefix([1, 2, 3, 4, 5]), Some(4));
        assert_eq!(trie.longest_prefix([1, 3]), None);
        assert_eq!(trie.longest_prefix([7, 7]), Some(1));
        assert_eq!(trie.longest_prefix([]), None);
        let mut edges: Vec<(u32, u32, u32)> = trie.edges().collect();
        edges.sort();
        assert_eq!(edges.len(), 5);
        assert_eq!(edges[0].0, 0);
        assert!(!trie.is_end(0));
    }
}
