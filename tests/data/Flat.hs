-- Flat.hs: a program whose memory stays flat. It builds a map of n entries once, then
-- rewrites every value many times over: each round allocates a new map and the old one
-- becomes garbage, so the live heap stays the size of one map for the whole run.
module Main where
import qualified Data.Map.Strict as M
import Data.List (foldl')
import System.Environment (getArgs)

step :: M.Map Int Int -> Int -> M.Map Int Int
step m r = M.map (\v -> (v * 31 + r) `mod` 1000003) m

main :: IO ()
main = do
  args <- getArgs
  let (n, rounds) = case args of (a:b:_) -> (read a, read b); _ -> (20000, 300)
      m0 = M.fromList [ (k, k) | k <- [1 .. n] ]
      final = foldl' step m0 [1 .. rounds]
  print (M.foldl' (+) 0 final)
