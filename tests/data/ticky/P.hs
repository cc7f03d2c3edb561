-- A deterministic ticky test program: counters whose work ends early (sumTo, adders,
-- applyAll), and build, total and loop, which run to the end.
module Main (main) where

import Data.List (foldl')

data T = L | N T Int T

build :: Int -> Int -> T
build lo hi
  | lo > hi = L
  | otherwise = let m = (lo + hi) `div` 2 in N (build lo (m - 1)) m (build (m + 1) hi)
{-# NOINLINE build #-}

total :: T -> Int
total L = 0
total (N l x r) = total l + x + total r
{-# NOINLINE total #-}

sumTo :: Int -> Int
sumTo n = foldl' (+) 0 [1 .. n]
{-# NOINLINE sumTo #-}

loop :: Int -> Int -> Int
loop 0 acc = acc
loop k acc = loop (k - 1) (acc + total (build 1 (k `mod` 50)))
{-# NOINLINE loop #-}

-- Function closures allocated at run time (each captures k): their counter's
-- allocation *of* them is what -ticky-allocd counts.
adders :: Int -> [Int -> Int]
adders n = [\x -> x * k + 1 | k <- [1 .. n]]
{-# NOINLINE adders #-}

applyAll :: Int -> Int
applyAll n = foldl' (\acc f -> acc + f 3) 0 (adders n)
{-# NOINLINE applyAll #-}

main :: IO ()
main = do
  print (total (build 1 200000))
  print (sumTo 3000000)
  print (applyAll 1000000)
  print (loop 400000 0)
